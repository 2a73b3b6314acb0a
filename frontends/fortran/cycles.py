"""CYCLE and SELECT CASE in a region: both become statement predicates.

A CYCLE skips the rest of its loop's iteration: every statement after it in the loop body
gets a guard, the negation of the conditions the CYCLE is under (the IF and CASE predicates
pushed since the loop body began).  The guard outlives the IF that holds the CYCLE, so the
builder keeps it on the loop's `CycleScope` and adds it to each statement it builds.  When the
loop body writes what the condition reads, the condition is evaluated once, at the CYCLE, into
a private temporary (as an IF condition is).

A SELECT CASE becomes the predicates of an IF ... ELSE IF chain, DEFAULT last: each CASE's
test (the selector compared with its values and ranges) under the negations of the tests
before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
from typing import Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.source import children, class_name, is_comment, node_lines
from translator.diagnostics import FrontendError, UnsupportedConstructError
from translator.ir.data import TemporaryVariable
from translator.ir.expr import NEVER, Expression, TypeCast


@dataclass
class CycleScope:
    """A DO loop of the region seen by CYCLE: its construct name, where its body's predicates
    start, its body (what it assigns, computed at the first CYCLE) and the guards that CYCLE
    statements so far put on the rest of the body."""

    name: str | None
    base: int
    body: list[Any]
    written: set[str] | None = None
    guards: list[Expression] = field(default_factory=list)


class BranchSupport:
    """The region builder's CYCLE and SELECT CASE (`RegionBuilder` derives from it)."""

    def init_branches(self) -> None:
        #: The enclosing DO loops of the statement being built, innermost last.
        self.cycle_scopes: list[CycleScope] = []

    def open_cycle_scope(self, do_stmt: Any, body: list[Any]) -> None:
        """Enter the body of a DO loop (its predicates so far are not the body's)."""
        start = getattr(do_stmt, "get_start_name", None)
        name = start() if start is not None else None
        self.cycle_scopes.append(CycleScope(name.lower() if name else None,
                                            len(self.predicates), body))

    def guards(self) -> list[Expression]:
        """The guards CYCLE statements put on the statement being built."""
        return [g for scope in self.cycle_scopes for g in scope.guards]

    def visit_Cycle_Stmt(self, node: Any) -> None:
        target = node.items[1]
        if not self.cycle_scopes:
            raise UnsupportedConstructError("CYCLE statement outside the DO loops of the region "
                                            "is not supported inside a kernel region",
                                            self.span("cycle"))
        scope = self.cycle_scopes[-1]
        if target is not None and str(target).lower() != scope.name:
            raise UnsupportedConstructError(
                f"CYCLE {str(target).lower()} of an outer DO loop is not supported inside a "
                "kernel region: only CYCLE of the innermost loop (put the rest of the outer "
                "loop's body under an IF)", self.span(str(target)))
        conds = self.predicates[scope.base:]
        if not conds:
            scope.guards.append(NEVER)
            return
        cond = reduce(lambda a, b: p.LogicalAnd((a, b)), conds)
        if self.read_names(cond) & self._body_writes(scope):
            cond = self._cycle_flag(cond, scope)
        scope.guards.append(p.LogicalNot(cond))

    def _body_writes(self, scope: CycleScope) -> set[str]:
        if scope.written is None:
            scope.written = set().union(*(self.assigned(b) for b in scope.body))
        return scope.written

    def _cycle_flag(self, cond: Expression, scope: CycleScope) -> Expression:
        """`cond` evaluated at the CYCLE into a private temporary, under the predicates of the
        loop body's start (the body writes what it reads)."""
        name = self._names("_tr_cycle")
        self.temporaries[name] = TemporaryVariable(name=name, dtype=np.int32, span=self.span())
        saved = self.predicates[scope.base:]
        del self.predicates[scope.base:]
        try:
            self.add(p.Variable(name), TypeCast(np.dtype(np.int32), cond))
        finally:
            self.predicates.extend(saved)
        return p.Variable(name)

    # -- SELECT CASE ----------------------------------------------------------------------

    def visit_Case_Construct(self, node: Any) -> None:
        kids = [k for k in children(node) if not is_comment(k)]
        selector = self._selector(kids[0].items[0], self.assigned(node))
        branches = _case_branches(kids[1:])
        tests = [self._case_test(selector, sel) for sel, _, _ in branches]
        others = [t for t in tests if t is not None]
        for (_, body, line), test in zip(branches, tests):
            saved = len(self.predicates)
            # an ELSE IF chain with DEFAULT last: the analysis pairs its complementary
            # predicates (a scalar every branch writes is written in every iteration)
            before = others if test is None else others[:others.index(test)]
            self.predicates.extend(p.LogicalNot(t) for t in before)
            if test is not None:
                self.predicates.append(test)
            self.line = line
            try:
                self.visit_block(body)
            finally:
                del self.predicates[saved:]

    def _selector(self, node: Any, written: set[str]) -> Expression:
        """The selector's value; hoisted into a temporary when the construct writes what it
        reads (the CASE tests are evaluated per statement)."""
        t = self.expr.visit(node)
        if t.ftype.base != "integer":
            raise UnsupportedConstructError(
                f"SELECT CASE on a {t.ftype.base} selector is not supported inside a kernel "
                "region (only an integer selector)", self.span("select"))
        if not (self.read_names(t.expr) & written):
            return t.expr
        name = self._names("_tr_case")
        dtype = np.dtype(t.ftype.dtype)
        self.temporaries[name] = TemporaryVariable(name=name, dtype=dtype, span=self.span())
        self.add(p.Variable(name), t.expr)
        return p.Variable(name)

    def _case_test(self, selector: Expression, case_selector: Any) -> Expression | None:
        """The condition of one CASE (None: DEFAULT)."""
        values = case_selector.items[0]
        if values is None:
            return None
        tests = [self._case_range(selector, v) for v in children(values)]
        return reduce(lambda a, b: p.LogicalOr((a, b)), tests)

    def _case_range(self, selector: Expression, node: Any) -> Expression:
        if class_name(node) != "Case_Value_Range":
            return p.Comparison(selector, "==", self._case_value(node))
        lo, hi = node.items
        parts = ([p.Comparison(selector, ">=", self._case_value(lo))] if lo is not None else []) \
            + ([p.Comparison(selector, "<=", self._case_value(hi))] if hi is not None else [])
        return parts[0] if len(parts) == 1 else p.LogicalAnd(tuple(parts))

    def _case_value(self, node: Any) -> Expression:
        t = self.expr.visit(node)
        if t.ftype.base != "integer":
            raise FrontendError(f"CASE value {node} is not an integer", self.span())
        return t.expr


def _case_branches(kids: list[Any]) -> list[tuple[Any, list[Any], int]]:
    """(Case_Selector, body statements, line) of each CASE of a SELECT CASE construct."""
    out: list[tuple[Any, list[Any], int]] = []
    for kid in kids:
        name = class_name(kid)
        if name == "Case_Stmt":
            out.append((kid.items[0], [], (node_lines(kid) or (0, 0))[0]))
        elif name != "End_Select_Stmt" and out:
            out[-1][1].append(kid)
    return out


__all__ = ["BranchSupport", "CycleScope"]
