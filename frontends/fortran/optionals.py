"""``present(opt)`` of an OPTIONAL dummy in a region: one kernel where it is present, one
where it is absent.

The region's procedure knows at the call whether an optional dummy is present, so a region
that tests ``present(wt)`` is built twice: with ``present(wt)`` true (the region as named) and
false (its companion ``<name>_absent_wt``), each with the branches that cannot run dropped.
The rewritten call chooses: ``if (present(wt)) then; call <region>(...); else; call
<companion>(...); end if``.  Where it is absent the kernel must not touch the argument: a
statement of the companion that still reads or writes it (a use outside every ``if
(present(wt))``) refuses the region at that statement.  Up to `MAX_TESTED` optional
arguments may be tested per region (a build for each combination, `absent_variants`); more
are refused with what to write.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import numpy as np
import pymbolic.primitives as p
from pymbolic.mapper.evaluator import UnknownVariableError, evaluate

from frontends.fortran.expressions import Typed
from frontends.fortran.types import LOGICAL
from translator.diagnostics import FrontendError, UnsupportedConstructError
from translator.ir.expr import Expression, dependencies

#: The most OPTIONAL arguments one region may test with ``present`` (2**k builds: for five,
#: 32 kernels; each further one doubles the translation time of the region, the kernels in
#: its program and the call's chain, bench/RESULTS.md h85).
MAX_TESTED = 5


class OptionalSupport:
    """The region builder's ``present`` (`RegionBuilder` derives from it)."""

    def init_optionals(self) -> None:
        #: The OPTIONAL dummies of the region's procedure that the region tests.
        self.tested_optionals: list[str] = []
        #: The value ``present`` has for each of them in this build (absent: true).
        self.assumed_present: dict[str, bool] = {}

    def present_flag(self, name: str) -> Typed:
        """The value of ``present(name)`` in this build: a constant."""
        if self.frame is not None:
            # a callee's dummy: absent where the call leaves it out; else present where its
            # actual is, unless that is an optional of the region's procedure
            if name in self.frame.absent:
                return Typed(np.int32(0), LOGICAL)
            name = self._passed_optional(name)
            if name is None:
                return Typed(np.int32(1), LOGICAL)
        sym = self.region_scope.lookup_declared(name)
        if sym is None or not sym.is_dummy or not sym.optional:
            raise FrontendError(f"present({name}): {name!r} is not an OPTIONAL dummy argument",
                                self.span(name))
        if name not in self.tested_optionals:
            self.tested_optionals.append(name)
        if len(self.tested_optionals) > MAX_TESTED:
            listed = ", ".join(repr(o) for o in self.tested_optionals)
            raise UnsupportedConstructError(
                f"the region tests present() of {len(self.tested_optionals)} OPTIONAL "
                f"arguments ({listed}); at most {MAX_TESTED} are supported (a kernel for each "
                "combination of present and absent): split it into regions that test fewer",
                self.span(name))
        return Typed(np.int32(1 if self.assumed_present.get(name, True) else 0), LOGICAL)

    def _passed_optional(self, dummy: str) -> str | None:
        """The OPTIONAL dummy of the region's procedure that a callee's dummy `dummy` is bound
        to, through every call between (None: another actual)."""
        frame = self.frame
        if dummy in frame.scalars:
            names = dependencies(frame.scalars[dummy].expr)
        elif dummy in frame.views:
            names = dependencies(self.views[frame.views[dummy].name].template)
        else:
            return None
        for name in names:
            sym = self.region_scope.lookup_declared(name)
            if sym is not None and sym.is_dummy and sym.optional:
                return name
        return None

    def settled(self, predicates: list[Expression]) -> list[Expression] | None:
        """`predicates` without those that are constant true; None if one is constant false
        (the statement never runs: a branch of ``present`` not taken in this build)."""
        out = []
        for pred in predicates:
            value = _truth(pred)
            if value is None:
                out.append(pred)
            elif not value:
                return None
        return out

    def deciding(self) -> bool:
        """Whether ``present`` may make conditions constant in this build."""
        return bool(self.tested_optionals) or (self.frame is not None and
                                               bool(self.frame.absent))

    def decided(self, condition: Expression) -> Expression | None:
        """`condition` as a constant where ``present`` decides it in this build."""
        value = _truth(condition)
        return None if value is None else np.int32(int(value))

    def check_absent_untouched(self) -> None:
        """In a build where an optional is absent, no statement may touch it."""
        for name, present in self.assumed_present.items():
            if present:
                continue
            for stmt in self.statements:
                used = set(dependencies(stmt.expression)) | set(dependencies(stmt.assignee))
                used |= {n for c in stmt.predicates for n in dependencies(c)}
                if name in used:
                    raise UnsupportedConstructError(
                        f"OPTIONAL dummy {name!r} is used where the region does not test "
                        f"present({name}): the kernel must not touch it when it is absent; put "
                        f"the use under if (present({name})) then ... end if", stmt.span)
            # only dropped statements touched it (its extents are not asked where absent)
            self.touched.pop(name, None)
            for value in [g for g in self.generated.values()
                          if re.search(rf"(?<![\w%]){name}(?!\w)", g.call_text, re.I)]:
                del self.generated[value.name]


def absent_variants(name: str, tested: list[str], build: Callable[[str, dict[str, bool]], Any]
                    ) -> tuple[list[str], list[tuple[tuple[bool, ...], str, Any]]]:
    """The tested optionals and the builds of region `name` for every combination of them
    present and absent but all present: (presence of each, build name, builder), in a fixed
    order (``itertools.product``).  `build(name, assumed)` builds the region with the values
    of ``present`` `assumed`; a build that tests a further optional (one a branch the
    all-present build dropped tests) widens the set and starts again."""
    tested = list(tested)
    while True:
        out = []
        for pattern in itertools.product((True, False), repeat=len(tested)):
            if all(pattern):
                continue
            absent = [o for o, here in zip(tested, pattern) if not here]
            built = build(f"{name}_absent_{'_'.join(absent)}", dict(zip(tested, pattern)))
            new = [o for o in built.tested_optionals if o not in tested]
            if new:
                tested += new
                break
            out.append((pattern, f"{name}_absent_{'_'.join(absent)}", built))
        else:
            return tested, out


def _truth(e: Expression) -> bool | None:
    """The value of a condition where its constants decide it (``present(w) .and. x > 0``
    with ``present(w)`` false), None where they do not."""
    if isinstance(e, p.LogicalNot):
        inner = _truth(e.child)
        return None if inner is None else not inner
    if isinstance(e, (p.LogicalAnd, p.LogicalOr)):
        values = [_truth(c) for c in e.children]
        decisive = isinstance(e, p.LogicalOr)   # a true child decides OR, a false one AND
        if decisive in values:
            return decisive
        return (not decisive) if all(v is not None for v in values) else None
    try:
        return bool(evaluate(e, {}))
    except (UnknownVariableError, TypeError, AttributeError, KeyError, ValueError):
        return None


__all__ = ["MAX_TESTED", "OptionalSupport", "absent_variants"]
