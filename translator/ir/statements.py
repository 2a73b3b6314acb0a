"""Statements ("instructions" in the reference): assignment, call, barrier, no-op.

Set-valued fields are frozensets: anything that emits text must sort them.
"""

from __future__ import annotations

from dataclasses import field

import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError, SourceSpan
from translator.ir.expr import Expression, LinearSubscript, expr_key
from translator.records import dataclass, replace


@dataclass(frozen=True, slots=True, kw_only=True)
class Statement:
    """Fields common to every statement.

    `no_sync_with` holds (id-or-pattern, scope) pairs, scope in {"local", "global", "any"}.
    `depends_on` holds concrete statement ids (wildcards are resolved at creation).
    """

    id: str
    within_inames: frozenset[str] = frozenset()
    depends_on: frozenset[str] = frozenset()
    predicates: frozenset[Expression] = frozenset()
    tags: frozenset[str] = frozenset()
    groups: frozenset[str] = frozenset()
    conflicts_with_groups: frozenset[str] = frozenset()
    no_sync_with: frozenset[tuple[str, str]] = frozenset()
    priority: int = 0
    span: SourceSpan | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not self.id:
            raise KernelLanguageError("statement without an id", self.span)
        for _, scope in self.no_sync_with:
            if scope not in ("local", "global", "any"):
                raise KernelLanguageError(f"statement {self.id!r}: unknown nosync scope "
                                          f"{scope!r} (expected local, global or any)", self.span)

    def assignee_names(self) -> tuple[str, ...]:
        return ()

    def read_expressions(self) -> tuple[Expression, ...]:
        """Expressions evaluated by this statement (RHS, subscripts of LHS, predicates)."""
        return tuple(sorted(self.predicates, key=expr_key))


@dataclass(frozen=True, slots=True, kw_only=True)
class Assignment(Statement):
    """``assignee = expression``.  `atomicity` names variables updated atomically."""

    assignee: Expression
    expression: Expression
    atomicity: frozenset[str] = frozenset()

    def assignee_names(self) -> tuple[str, ...]:
        return (_assignee_name(self.assignee),)

    def read_expressions(self) -> tuple[Expression, ...]:
        return (self.expression, *_subscript_indices(self.assignee),
                *Statement.read_expressions(self))


@dataclass(frozen=True, slots=True, kw_only=True)
class CallInstruction(Statement):
    """``a, b = f(x, y)``: one call with several (scalar) results."""

    assignees: tuple[Expression, ...]
    expression: Expression
    atomicity: frozenset[str] = frozenset()

    def assignee_names(self) -> tuple[str, ...]:
        return tuple(_assignee_name(a) for a in self.assignees)

    def read_expressions(self) -> tuple[Expression, ...]:
        idx = tuple(i for a in self.assignees for i in _subscript_indices(a))
        return (self.expression, *idx, *Statement.read_expressions(self))


@dataclass(frozen=True, slots=True, kw_only=True)
class BarrierInstruction(Statement):
    """An explicit barrier; `synchronization_kind` is "local" or "global"."""

    synchronization_kind: str = "global"
    mem_kind: str = "local"


@dataclass(frozen=True, slots=True, kw_only=True)
class NoOpInstruction(Statement):
    """Does nothing; useful as a dependency join point."""


def _assignee_name(expr: Expression) -> str:
    if isinstance(expr, p.Variable):
        return expr.name
    if isinstance(expr, p.Subscript):
        return _assignee_name(expr.aggregate)
    if isinstance(expr, LinearSubscript):
        return _assignee_name(expr.aggregate)
    raise KernelLanguageError(f"cannot assign to {expr}")


def _subscript_indices(expr: Expression) -> tuple[Expression, ...]:
    if isinstance(expr, p.Subscript):
        return tuple(expr.index_tuple)
    if isinstance(expr, LinearSubscript):
        return (expr.index,)
    return ()


def map_expressions(stmt: Statement, fn) -> Statement:
    """Apply `fn` to every expression of `stmt` (assignees, right-hand side, predicates);
    returns `stmt` itself when nothing changed."""
    changes: dict = {}
    for name in ("assignee", "expression"):
        if hasattr(stmt, name):
            old = getattr(stmt, name)
            new = fn(old)
            if new is not old:
                changes[name] = new
    if hasattr(stmt, "assignees"):
        new_assignees = tuple(fn(a) for a in stmt.assignees)
        if any(n is not o for n, o in zip(new_assignees, stmt.assignees)):
            changes["assignees"] = new_assignees
    new_preds = {pr: fn(pr) for pr in stmt.predicates}
    if any(n is not o for o, n in new_preds.items()):
        changes["predicates"] = frozenset(new_preds.values())
    return replace(stmt, **changes) if changes else stmt
