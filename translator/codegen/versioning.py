"""Full-tile versioning: a guard-free copy of the kernel body for work groups inside the domain.

A tiled kernel whose sizes are not multiples of the tile guards every statement
(``if (j_inner + 128*j_outer < n - 16 && ...)``), and unrolled register blocks multiply those
tests.  Most work groups lie wholly inside the domain, where every test is true.  At the kernel
start, and at the top of each iteration of a sequential loop whose bounds are the same for all
work items of a group, the emitter may print::

    if (<the whole tile is inside>)     /* group ids, value arguments, uniform loop inames */
    { <the body in a context that knows it: no guards> }
    else
    { <the general body> }

The condition is computed, not matched: for each statement occurrence the emitter would print,
isl gives the values of the kept names for which every point the code reaches there lies in the
statement's domain (`translator.ir.isl_glue.guard_free_set`); the condition is the intersection
over the statements that admit a cheap one (statements whose guard cannot go, such as one work
item writing a result, keep it).  Being uniform across a work group, the test is safe around
barriers.  It is emitted only where it pays (guards inside loops, or a loop around them whose
trip count the full tile makes constant) and where the copy stays small (`MAX_OCCURRENCES`,
`MAX_NESTING`).
"""

from __future__ import annotations

from dataclasses import replace

import pymbolic.primitives as p

from translator.codegen.emit import Conditions, TreeEmitter
from translator.codegen.grid import Grid
from translator.codegen.arg_reductions import is_arg_finish
from translator.records import dataclass
from translator.schedule import (BarrierNode, LoopNode, Schedule, ScheduleNode,
                                         StatementNode)
from translator.diagnostics import CodegenError
from translator.ir import isl_glue as glue
from translator.ir.expr import Expression, dependencies, expr_key
from translator.ir.statements import (Assignment, BarrierInstruction, CallInstruction,
                                      Statement)
from translator.ir.tags import GroupTag
from translator.ir.types import TypeOracle

#: Whether `VersioningEmitter.full_tile_tests` refuses without the probe where the schedule
#: shows that versioning cannot pay (`VersioningEmitter.cannot_pay`; tests compare both).
SHORTCUT = True
#: Statement occurrences (after unrolling) of a region beyond which it is not copied.
MAX_OCCURRENCES = 1024
#: Versioned regions nested inside one another at most (each level doubles the code).
MAX_NESTING = 2
#: Guarded occurrences inside loops that the full version must remove for it to pay ...
MIN_HOT = 2
#: ... or guarded occurrences in all (an unrolled block run once).
MIN_UNROLLED = 16


@dataclass(frozen=True, slots=True)
class Occurrence:
    """A statement (or a loop's trip count) as the emitter reaches it: the context, where it
    must run (`where`, an isl set), and whether a loop repeats it."""

    where: object
    conds: Conditions
    in_loop: bool
    #: for a loop: statement occurrences in its body (a constant trip count pays where a
    #: body with at least `MIN_HOT` of them has no guard left to remove)
    body: int = 0


class _Probe(TreeEmitter):
    """Walks a region as the emitter would, printing nothing, with guards neither grouped nor
    hoisted: records every statement occurrence and its context, and every loop whose bounds a
    full tile would make constant (a constant trip count lets the compiler unroll it)."""

    def __init__(self, parent: TreeEmitter) -> None:   # noqa: super-init: shares the state
        self.__dict__.update(parent.__dict__)          # isl caches, kernel, grid facts
        self.lines = []
        self.helpers = set()
        self.atomics = set()
        self.found: list[Occurrence] = []
        self._loops = 0

    def out(self, depth: int, text: str) -> None:
        return

    def guard_group(self, nodes, start, conds):
        return nodes[start:start + 1], ()

    def hoistable(self, node, conds) -> Conditions:
        return ()

    def plain_loop(self, node, conds, env, active, depth) -> None:
        box = self.constant_box(node.iname, conds, active)
        at = len(self.found)
        if box:
            dom = self.iname_domain(node.iname)
            known = set(active) | self.hardware
            where = glue.trip_set(dom, node.iname, [n for n in glue.inames_of(dom) if n in known])
            self.found.append(Occurrence(where, conds + box, True))
        self._loops += 1
        try:
            super().plain_loop(node, conds, env, active, depth)
        finally:
            self._loops -= 1
        if box:
            self.found[at] = replace(self.found[at], body=len(self.found) - at - 1)

    def constant_box(self, iname: str, conds: Conditions, active: tuple[str, ...]
                     ) -> Conditions:
        """``lo <= iname <= lo + E - 1`` for a loop from `lo` with at most `E` (constant)
        values, or () when its trip count is not bounded by a constant."""
        lowers, _, _ = self.bounds(iname, conds, active)
        dom = self.iname_domain(iname)
        known = set(active) | self.hardware
        outer = [n for n in glue.inames_of(dom) if n != iname and n in known]
        extent = glue.constant_extent_bound(dom, iname, outer)
        if extent is None or len(lowers) != 1 or lowers[0][0] != 1:
            return ()
        v, lo = p.Variable(iname), lowers[0][1]
        return (p.Comparison(v, ">=", lo), p.Comparison(v, "<=", p.Sum((lo, extent - 1))))

    def statement(self, stmt, conds, env, depth) -> None:
        if isinstance(stmt, (Assignment, CallInstruction)):
            self.found.append(Occurrence(guarded(self, stmt), conds, self._loops > 0))


def guarded(emitter: TreeEmitter, stmt: Statement):
    """Where `stmt` runs (`executed`), also restricted by its affine predicates (a prefetch's
    clipping to the array): the full copy drops those tests as well."""
    out = emitter.guard_domain(stmt)
    for cond in sorted(stmt.predicates, key=expr_key):
        s = emitter.affine_predicate(cond)
        if s is not None:
            out = glue.restrict_context(s, out)
    return out


def _segments(nodes: tuple[ScheduleNode, ...], stmts: dict[str, Statement]
              ) -> list[tuple[bool, tuple[ScheduleNode, ...]]]:
    """`nodes` cut into runs: (True, run) without barriers, (False, (node,)) for a barrier or a
    loop that holds one.  Copies never hold barriers: some OpenCL implementations (PoCL)
    mishandle barriers inside conditionals, even uniform ones."""
    out: list[tuple[bool, tuple[ScheduleNode, ...]]] = []
    run: list[ScheduleNode] = []
    for node in nodes:
        if _has_barrier(node, stmts):
            if run:
                out.append((True, tuple(run)))
                run = []
            out.append((False, (node,)))
        else:
            run.append(node)
    if run:
        out.append((True, tuple(run)))
    return out


def _has_barrier(node: ScheduleNode, stmts: dict[str, Statement]) -> bool:
    if isinstance(node, StatementNode):
        stmt = stmts[node.statement_id]
        # the helper of an arg-reduction holds barriers (`translator.codegen.arg_reductions`)
        return isinstance(stmt, BarrierInstruction) or is_arg_finish(stmt)
    if isinstance(node, LoopNode):
        return any(_has_barrier(c, stmts) for c in node.body)
    return isinstance(node, BarrierNode)


class VersioningEmitter(TreeEmitter):
    """`TreeEmitter` that prints a guard-free copy of regions for full tiles."""

    def __init__(self, schedule: Schedule, grid: Grid, oracle: TypeOracle) -> None:
        super().__init__(schedule, grid, oracle)
        groups = {i for i, t in schedule.hardware.items() if isinstance(t, GroupTag)}
        values = {a.name for a in self.kernel.value_args}
        #: Names uniform across a work group, innermost region last.
        self._uniform: list[frozenset[str]] = [frozenset(groups | values)]
        self._nesting = 0
        #: Full-tile sets whose test failed (the `else` copies being printed).
        self._failed: list = []
        #: `guard_free` answers by the identity of their isl arguments, which each entry holds.
        self._guard_free: dict[tuple, tuple] = {}

    def plain_loop(self, node: LoopNode, conds: Conditions, env: dict[str, Expression],
                   active: tuple[str, ...], depth: int) -> None:
        lowers, uppers, _ = self.bounds(node.iname, conds, active)
        deps = set().union(*(dependencies(e) for _, e in lowers + uppers))
        uniform = self._uniform[-1]
        self._uniform.append(uniform | {node.iname} if deps <= uniform else uniform)
        try:
            super().plain_loop(node, conds, env, active, depth)
        finally:
            self._uniform.pop()

    def region(self, nodes: tuple[ScheduleNode, ...], conds: Conditions,
               env: dict[str, Expression], active: tuple[str, ...], depth: int,
               loop: LoopNode | None) -> None:
        keep = self._uniform[-1]
        if self._nesting >= MAX_NESTING or (loop is not None and loop.iname not in keep):
            self.nodes(nodes, conds, env, active, depth)
            return
        for plain, run in _segments(nodes, self.stmts):
            if plain:
                self.segment(run, conds, env, active, depth, keep)
            else:
                self.nodes(run, conds, env, active, depth)

    def segment(self, nodes: tuple[ScheduleNode, ...], conds: Conditions,
                env: dict[str, Expression], active: tuple[str, ...], depth: int,
                keep: frozenset[str]) -> None:
        """A run of nodes without barriers: a full copy and the general one, where it pays."""
        found = self.full_tile_tests(nodes, conds, env, active, keep)
        if found is None:
            self.nodes(nodes, conds, env, active, depth)
            return
        tests, full = found
        pr = self.printer(env, self.context(conds))
        self.out(depth, f"if ({self.joined(pr, tests)})")
        self.collect(pr)
        self._nesting += 1
        try:
            self.out(depth, "{  /* full tile: no bounds guards */")
            self.nodes(nodes, conds + tests, env, active, depth + 1)
            self.out(depth, "}")
            self.out(depth, "else")
            self.out(depth, "{")
            self._failed.append(full)
            self.nodes(nodes, conds, env, active, depth + 1)
            self._failed.pop()
            self.out(depth, "}")
        finally:
            self._nesting -= 1

    def full_tile_tests(self, nodes: tuple[ScheduleNode, ...], conds: Conditions,
                        env: dict[str, Expression], active: tuple[str, ...],
                        keep: frozenset[str]) -> tuple[Conditions, object] | None:
        """The test (over `keep`) under which a copy of `nodes` needs no bounds guards, and
        its isl set; None where versioning does not pay, is not possible, or the test can only
        hold where an enclosing full-tile test already failed."""
        if SHORTCUT and self.cannot_pay(nodes, active):
            return None
        probe = _Probe(self)
        probe.nodes(nodes, conds, env, active, 0)
        if not probe.found or len(probe.found) > MAX_OCCURRENCES:
            return None
        if sum(occ.in_loop for occ in probe.found) < MIN_HOT \
                and len(probe.found) < MIN_UNROLLED:
            return None   # it could not pay even if every guard could go (the test below)
        ctx = self.context(conds)
        base = glue.keep_params(ctx, keep)
        sets = []
        hot = 0
        for occ in probe.found:
            good = self.guard_free(occ, base, keep)
            if good is not None:
                sets.append(good)
                hot += MIN_HOT if occ.body >= MIN_HOT else occ.in_loop
        if hot < MIN_HOT and len(sets) < MIN_UNROLLED:
            return None
        full = glue.intersect_simple(sets, base)
        if full is None or any(glue.holds_in(failed, full) for failed in self._failed):
            return None
        tests = tuple(glue.tile_conditions(full, ctx) or ())
        if not tests:
            return None
        try:   # the copy must print: no loop may lose its bounds in the stronger context
            _Probe(self).nodes(nodes, conds + tests, env, active, 0)
        except CodegenError:
            return None
        return tests, full

    def cannot_pay(self, nodes: tuple[ScheduleNode, ...], active: tuple[str, ...]) -> bool:
        """Whether `full_tile_tests`' first refusal (fewer than `MIN_HOT` occurrences in loops
        and fewer than `MIN_UNROLLED` in all) is certain from the schedule, before the probe
        walks `nodes` asking its isl questions: each statement is one occurrence (in a loop
        or not), each loop at most one (in a loop), none where its trip count has no
        constant bound (`_Probe.constant_box` asks the same question first).  Unrolled
        loops (whose copies count) leave it to the probe."""
        counts = [0, 0]   # occurrences in loops, occurrences in all
        if not self._tally(nodes, active, False, counts):
            return False
        return counts[0] < MIN_HOT and counts[1] < MIN_UNROLLED

    def _tally(self, nodes: tuple[ScheduleNode, ...], active: tuple[str, ...], in_loop: bool,
               counts: list[int]) -> bool:
        """Add `cannot_pay`'s upper bounds for `nodes` to `counts`; False where a loop is
        unrolled."""
        for node in nodes:
            if isinstance(node, StatementNode):
                if isinstance(self.stmts[node.statement_id], (Assignment, CallInstruction)):
                    counts[0] += in_loop
                    counts[1] += 1
            elif isinstance(node, LoopNode):
                if node.unrolled:
                    return False
                if self._may_box(node.iname, active):
                    counts[0] += 1
                    counts[1] += 1
                if not self._tally(node.body, active + (node.iname,), True, counts):
                    return False
        return True

    def _may_box(self, iname: str, active: tuple[str, ...]) -> bool:
        """False where `_Probe.constant_box` finds no constant bound on the loop's trip
        count (asked with the same arguments, so the probe, if it walks, finds the answer)."""
        dom = self.iname_domain(iname)
        known = set(active) | self.hardware
        outer = [n for n in glue.inames_of(dom) if n != iname and n in known]
        return glue.constant_extent_bound(dom, iname, outer) is not None

    def guard_free(self, occ: Occurrence, base: object, keep: frozenset[str]) -> object:
        """`glue.guard_free_set` for one occurrence; occurrences in the same context and
        domain (the statements of one loop body) ask it once."""
        ctx = self.context(occ.conds)
        key = (id(ctx), id(occ.where), id(base), keep)
        hit = self._guard_free.get(key)
        if hit is None:
            hit = (ctx, occ.where, base, glue.guard_free_set(ctx, occ.where, base, keep))
            self._guard_free[key] = hit
        return hit[3]


__all__ = ["MAX_NESTING", "MAX_OCCURRENCES", "MIN_HOT", "Occurrence", "VersioningEmitter"]
