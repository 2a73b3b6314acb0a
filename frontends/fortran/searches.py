"""A loop that EXITs at the first index where a condition holds, in a region: a MIN
reduction.

``do i = lo, hi; if (c(i)) then; k = i; x = a(i); exit; end if; end do`` runs its iterations
until the first ``i`` where ``c(i)`` holds, assigns there and stops.  Nothing else in the loop
writes, so every ``c(i)`` sees the same data: the first index is ``min(i : c(i))``.  The
variable that captures the index (``k = i``: an integer scalar or array element) becomes that
MIN reduction, which the region maps in parallel: its value is kept in a private temporary,
it starts at ``hi + 1``, each iteration where ``c(i)`` holds takes ``min(k, i)``; after the
loop, where an index was found, the branch's other assignments run with ``k`` for ``i``, and
elsewhere ``k`` gets its kept value back.  Recognised only in that shape (the body one IF
without ELSE, its branch assignments ending in an unnamed EXIT or one naming the loop, one
of them the capture, none before it reading the capture's variable; a positive constant
step); any other EXIT is refused with the rewrite.  The loop variable's value after the
region is not computed then (an error where it is read there).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from frontends.fortran.build_support import assigned_names
from frontends.fortran.source import children, class_name, is_comment, walk
from frontends.fortran.types import INTEGER
from frontends.fortran.values import Typed, add_expr, call, cast
from translator.ir.data import TemporaryVariable


def search_shape(do_stmt: Any, var: str, body: list[Any]
                 ) -> tuple[Any, list[Any], int] | None:
    """(condition, the branch's assignments, the position of the capture ``k = var`` among
    them) of a search loop's body; None otherwise."""
    stmts = [n for n in body if not is_comment(n)
             and class_name(n) not in ("Continue_Stmt", "End_Do_Stmt")]
    if len(stmts) != 1 or class_name(stmts[0]) != "If_Construct":
        return None
    kids = [k for k in children(stmts[0]) if not is_comment(k)]
    if class_name(kids[-1]) != "End_If_Stmt" or any(
            class_name(k) in ("Else_Stmt", "Else_If_Stmt") for k in kids):
        return None
    inner = kids[1:-1]
    if not inner or not _exits_loop(inner[-1], do_stmt) or any(
            class_name(k) != "Assignment_Stmt" for k in inner[:-1]):
        return None
    assignments = inner[:-1]
    at = next((k for k, a in enumerate(assignments)
               if class_name(a.items[2]) == "Name" and str(a.items[2]).lower() == var), None)
    if at is None:
        return None
    target = assignments[at].items[0]
    base = str(target if class_name(target) == "Name" else target.items[0]).lower()
    subscripts = {str(n).lower() for n in walk(target) if class_name(n) == "Name"} - {base}
    before = {str(n).lower() for a in assignments[:at] for n in walk(a.items[2])
              if class_name(n) == "Name"}
    written = set().union(*(assigned_names(a) for a in assignments))
    condition = {str(n).lower() for n in walk(kids[0].items[0]) if class_name(n) == "Name"}
    if (before | condition) & {base} or var in subscripts or subscripts & written:
        return None
    return kids[0].items[0], assignments, at


def _exits_loop(stmt: Any, do_stmt: Any) -> bool:
    """Whether `stmt` is an EXIT of the loop of `do_stmt`."""
    if class_name(stmt) != "Exit_Stmt":
        return False
    target = stmt.items[1]
    start = getattr(do_stmt, "get_start_name", None)
    name = start() if start is not None else None
    return target is None or (name is not None and str(target).lower() == name.lower())


class SearchSupport:
    """The region builder's search loops (`RegionBuilder` derives from it)."""

    def search_loop(self, var: str, bounds: list[Any], cond_node: Any,
                    assignments: list[Any], at: int) -> bool:
        """Build the search `do var = bounds` (see the module docstring); False (nothing
        built) where the capture is not an integer."""
        capture = self._target(assignments[at].items[0])
        if capture.ftype.base != "integer" or not isinstance(capture.expr,
                                                             (p.Variable, p.Subscript)):
            return False
        keep = self.new_name("_tr_kept")
        self.temporaries[keep] = TemporaryVariable(name=keep, dtype=capture.ftype.dtype,
                                                   span=self.span(var))
        self.add(p.Variable(keep), capture.expr)
        saved, open_loops = len(self.frames), len(self._open_loops)
        self._enter(var, bounds[0], bounds[1], bounds[2] if len(bounds) > 2 else None)
        record = self._open_loops[-1]
        frame = self.frames.pop()   # the start value is set before the loop
        self.add(capture.expr, cast(Typed(add_expr(record.hi, 1), INTEGER), capture.ftype))
        self.frames.append(frame)
        try:
            self.predicates.append(self.condition(cond_node, set()))
            index = cast(Typed(frame.value, INTEGER), capture.ftype)
            self.add(capture.expr, call("min", capture.expr, index))
        finally:
            self.predicates.pop()
            del self.frames[saved:]
            del self._open_loops[open_loops:]
        self.loops[self.loops.index(record)] = replace(record, exits=True)
        self._found(var, capture, record.hi, [a for k, a in enumerate(assignments) if k != at])
        self.predicates.append(p.Comparison(capture.expr, ">", record.hi))
        try:
            self.add(capture.expr, p.Variable(keep))   # none found: the kept value
        finally:
            self.predicates.pop()
        return True

    def _found(self, var: str, capture: Typed, hi: Any, assignments: list[Any]) -> None:
        """The other assignments of the exiting iteration, where an index was found."""
        saved = self.block_locals
        self.block_locals = {**saved, var: Typed(capture.expr, capture.ftype)}
        self.predicates.append(p.Comparison(capture.expr, "<=", hi))
        try:
            for stmt in assignments:
                self.line = self.statement_line(stmt)
                self._assign(stmt, [])
        finally:
            self.predicates.pop()
            self.block_locals = saved


__all__ = ["SearchSupport", "search_shape"]
