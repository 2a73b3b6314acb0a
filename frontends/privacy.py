"""Whether a scalar the region writes is written before every read, in the same iteration, on
every path: then its incoming value is never used and it may be a private temporary (one copy
per work item).  Shared by the Fortran and C frontends; the proof that a parallel mapping keeps
each read's value in its own work item is `translator.analysis.private_flow` (isl).

The region's statements come in source order, each with its loops, its predicates (the
conditions of the ``if`` branches around it) and the names it reads and writes.  A read is
covered when earlier writes of the scalar, each inside loops that all enclose the read, ran on
every path that reaches it: their predicates, combined over complementary branches (``c`` and
``not c`` give the predicates they share: an ``if``/``else`` or an ``else if`` chain whose every
branch writes), are among the read's own.  A write whose predicates read a variable that a later
statement changes no longer counts (the condition may not hold the same value at the read).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from translator.ir.expr import Expression, dependencies
from translator.ir.predicates import combined
from translator.records import dataclass


@dataclass(frozen=True)
class Step:
    """One statement of a region, for `written_before_every_read`."""

    loops: frozenset[Hashable]
    predicates: frozenset[Expression]
    reads: frozenset[str]
    writes: frozenset[str]


def written_before_every_read(name: str, steps: Sequence[Step]) -> bool:
    """Whether every read of `name` follows, in each iteration, a write of it on every path
    (see the module docstring); False when the region never writes it."""
    writes: list[Step] = []
    for step in steps:
        if name in step.reads and not _covered(step, writes):
            return False
        # a condition whose data changes here may not hold at a later read as it did then
        writes = [w for w in writes if not _reads_any(w.predicates, step.writes)]
        if name in step.writes:
            writes.append(step)
    # written at all (a write dropped above, its condition changed later, still counts)
    return any(name in step.writes for step in steps)


def _reads_any(predicates: Iterable[Expression], names: frozenset[str]) -> bool:
    return bool(names) and any(dependencies(c) & names for c in predicates)


def _covered(read: Step, writes: list[Step]) -> bool:
    sets = {w.predicates for w in writes if w.loops <= read.loops}
    return any(s <= read.predicates for s in combined(sets))
