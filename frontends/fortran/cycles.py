"""CYCLE, arithmetic IF and SELECT CASE in a region: all become statement predicates.

A CYCLE skips the rest of its loop's iteration: every statement after it in the loop body
gets a guard, the negation of the conditions the CYCLE is under (the IF and CASE predicates
pushed since the loop body began).  The guard outlives the IF that holds the CYCLE, so the
builder keeps it on the loop's `CycleScope` and adds it to each statement it builds.  When the
loop body writes what the condition reads, the condition is evaluated once, at the CYCLE, into
a private temporary (as an IF condition is).

An arithmetic IF (``IF (e) 10, 20, 30``) jumps forward to labels of its own block: from it
on, each statement of the block runs where control reaches it, falling through from the
statement before or by a branch taken to its label: the arithmetic IFs, ``GO TO l`` and
``IF (c) GO TO l`` to labels further on in the block (the usual three-way shape ``10 ...; GO
TO 99``, ``20 ...; GO TO 99``, ``30 ...``, ``99 CONTINUE`` becomes an IF ... ELSE IF chain;
labels past DO loops and other arithmetic IFs too).  Where several branches reach a label,
the condition is evaluated there once (``_tr_reach``).  A label elsewhere (backward, in
another block, inside a DO loop's range) is refused with what to write instead.

A SELECT CASE becomes the predicates of an IF ... ELSE IF chain, DEFAULT last: each CASE's
test (the selector compared with its values and ranges) under the negations of the tests
before it.

An EXIT ends its loop (the innermost, or the one it names): the loop gets a private flag
(``_tr_exit``), cleared before the loop and set by the EXIT, and every statement of its body
runs only while the flag is clear, so the iterations after the EXIT do nothing.  The flag
carries a value from one iteration to the next, so legality never runs that loop's iterations
in parallel (loops around it may be).  The search shape (``if (c) then; k = i; exit``) is a
MIN reduction instead (`frontends.fortran.searches`).  The loop's DO variable after it is
not computed (an error where it is read).
"""

from __future__ import annotations

import re
from dataclasses import field, replace
from functools import reduce
from typing import Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.source import children, class_name, is_comment
from frontends.fortran.values import compare
from translator.diagnostics import SourceSpan, UnsupportedConstructError
from translator.ir.data import TemporaryVariable
from translator.ir.expr import NEVER, Expression, TypeCast

#: What to write instead of an arithmetic IF the region builder cannot follow.
_ARITHMETIC_IF = ("write it as IF (e < 0) THEN ... ELSE IF (e == 0) THEN ... ELSE ... END IF")
from translator.records import dataclass


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
    #: The flag an EXIT of this loop sets (None: no EXIT ends it).
    exit_flag: str | None = None


@dataclass
class BlockLevel:
    """A block of statements being built (a loop body, an IF branch, the region's top): where
    its predicates start, how many DO loops hold it, the statements after the one being
    built, and the GO TOs out of nested constructs to a label among them (`skip_to`): each
    guards the statements built until that label's."""

    base: int
    loops: int
    rest: list[Any] = field(default_factory=list)
    skips: list[tuple[int, Expression]] = field(default_factory=list)


class BranchSupport:
    """The region builder's CYCLE and SELECT CASE (`RegionBuilder` derives from it)."""

    def init_branches(self) -> None:
        #: The enclosing DO loops of the statement being built, innermost last.
        self.cycle_scopes: list[CycleScope] = []
        #: The blocks being built, innermost last (`BlockLevel`).
        self.levels: list[BlockLevel] = []

    def enter_level(self) -> BlockLevel:
        level = BlockLevel(len(self.predicates), len(self.cycle_scopes))
        self.levels.append(level)
        return level

    def at_statement(self, level: BlockLevel, node: Any, rest: list[Any]) -> None:
        """Statement `node` of `level` is built next: a GO TO out of a construct to its
        label no longer skips anything."""
        level.rest = rest
        label = _label_number(_statement_label(node))
        if label is not None:
            level.skips = [(t, g) for t, g in level.skips if t != label]

    def leave_level(self, level: BlockLevel) -> None:
        """The end of `level`: every GO TO to one of its labels met that label."""
        if level.skips:
            raise UnsupportedConstructError(
                f"GO TO {level.skips[0][0]} out of an IF construct to a label the region "
                "builder does not reach in order (past a DO loop that shares its terminal, or "
                "after an arithmetic IF) is not supported inside a kernel region; write the "
                "branch as an IF ... THEN ... END IF block", self.span())

    def open_cycle_scope(self, do_stmt: Any, body: list[Any], exit_flag: str | None = None
                         ) -> None:
        """Enter the body of a DO loop (its predicates so far are not the body's); with an
        `exit_flag`, the body runs while it is clear."""
        name = _construct_name(do_stmt)
        scope = CycleScope(name, len(self.predicates), body, exit_flag=exit_flag)
        if exit_flag is not None:
            scope.guards.append(p.Comparison(p.Variable(exit_flag), "==", 0))
        self.cycle_scopes.append(scope)

    def exit_flag(self, do_stmt: Any, body: list[Any]) -> str | None:
        """The flag of a DO loop that an EXIT in `body` ends, cleared here, before the loop;
        None where none does."""
        if not _exited(do_stmt, body):
            return None
        name = self._names("_tr_exit")
        self.temporaries[name] = TemporaryVariable(name=name, dtype=np.int32, span=self.span())
        self.add(p.Variable(name), np.int32(0))
        return name

    def guards(self) -> list[Expression]:
        """The guards CYCLE statements and GO TOs out of constructs put on the statement
        being built."""
        return [*(g for scope in self.cycle_scopes for g in scope.guards),
                *(g for level in self.levels for _, g in level.skips)]

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
        self._skip_rest(scope)

    def visit_Goto_Stmt(self, node: Any) -> None:
        """``GO TO l`` where `l` labels the CONTINUE (or END DO) that ends the innermost DO
        loop, the FORTRAN 77 spelling of CYCLE; any other branch is refused."""
        label = _label_number(node.items[0])
        for depth, scope in enumerate(reversed(self.cycle_scopes)):
            if not _ends_at(scope.body, label):
                continue
            if depth:
                raise UnsupportedConstructError(
                    f"GO TO {label} skips the rest of an outer DO loop's iteration, which is "
                    "not supported inside a kernel region: only a GO TO the CONTINUE that ends "
                    "the innermost DO loop (a CYCLE) is (put the rest of the outer loop's body "
                    "under an IF)", self._goto_span())
            self._skip_rest(scope)
            return
        level = self._label_level(label)
        if level is not None:
            self._skip_to(label, level)
            return
        raise UnsupportedConstructError(
            f"GO TO {label} is not supported inside a kernel region: only a GO TO the CONTINUE "
            "that ends the innermost DO loop (a CYCLE) is, or one to a label further on in a "
            "block around it, inside the same DO loop; write the branch as an IF ... THEN ... "
            "END IF block", self._goto_span())

    def _label_level(self, label: int | None) -> BlockLevel | None:
        """The enclosing block, inside the innermost DO loop, where a statement after the
        one being built carries `label`."""
        for level in reversed(self.levels):
            if level.loops < len(self.cycle_scopes):
                return None   # out of the loop: an exit
            if any(_label_number(_statement_label(n)) == label for n in level.rest):
                return level
        return None

    def _skip_to(self, label: int, level: BlockLevel) -> None:
        """``GO TO label`` out of the constructs in `level`: the statements built until the
        label's run only where the GO TO was not taken (its conditions since the block's
        start, evaluated here into a flag where those statements write what they read)."""
        conds = self.predicates[level.base:]
        if not conds:
            level.skips.append((label, NEVER))
            return
        cond = reduce(lambda a, b: p.LogicalAnd((a, b)), conds)
        written = set().union(*(self.assigned(n) for n in level.rest))
        if self.read_names(cond) & written:
            cond = p.Comparison(self._flag(cond, level.base, "_tr_skip"), "!=", 0)
        level.skips.append((label, p.LogicalNot(cond)))

    def forward_branches(self, stmts: list[Any]) -> None:
        """Build `stmts`, a block from an arithmetic IF or a forward GO TO on (`forward_goto`),
        with its forward branches: an
        arithmetic IF, a ``GO TO l`` or an ``IF (c) GO TO l`` to a label later in `stmts`
        ends the fall-through there (where it branches), and the statement labelled `l` runs
        where control falls through to it or a branch to it was taken."""
        labels: dict[int, int] = {}
        for k, stmt in enumerate(stmts):
            label = _label_number(_statement_label(stmt))
            if label is not None:
                labels.setdefault(label, k)
        pending: dict[int, Expression | bool] = {}
        live: Expression | bool = True   # control falls through to the statement
        for k, stmt in enumerate(stmts):
            label = _label_number(_statement_label(stmt))
            self.line = self.statement_line(stmt)
            if self.levels:
                self.at_statement(self.levels[-1], stmt, stmts[k + 1:])
            if label in pending:
                live = self._reached(_either(live, pending.pop(label)))
            if class_name(stmt) == "Label_Do_Stmt":
                if pending:   # a branch into the loop's body
                    raise UnsupportedConstructError(
                        f"a branch to label {min(pending)}, inside the range of the DO loop "
                        "that starts here, is not supported inside a kernel region (a branch "
                        "into a loop); end the loop before that label, or write the branch as "
                        "IF ... THEN ... END IF blocks", self.span("do"))
                if live is not False:
                    self._under(live, lambda: self.loop_with_body(stmt, stmts[k + 1:]))
                return
            if live is False:
                continue   # no branch reaches it (an unlabelled statement after a GO TO)
            branches = self._branches(stmt, stmts[k + 1:], k, labels)
            if branches is None:
                self._under(live, lambda: self.visit(stmt))
                continue
            taken, live_after = branches
            for target, cond in taken:
                pending[target] = _either(pending.get(target, False), _both(live, cond))
            live = _both(live, live_after)

    def forward_goto(self, node: Any, rest: list[Any]) -> bool:
        """Whether `node` is a ``GO TO l`` or ``IF (c) GO TO l`` to a label of `rest`, the
        statements after it in its block, that is not the CONTINUE ending the innermost loop
        (a CYCLE: `visit_Goto_Stmt`); then the block from it on is built by
        `forward_branches`."""
        cls = class_name(node)
        stmt = node.items[1] if cls == "If_Stmt" else node
        if class_name(stmt) != "Goto_Stmt":
            return False
        label = _label_number(stmt.items[0])
        if self.cycle_scopes and _ends_at(self.cycle_scopes[-1].body, label):
            return False
        return any(_label_number(_statement_label(n)) == label for n in rest)

    def _reached(self, cond: Expression | bool) -> Expression | bool:
        """Where a label is reached from several places (``a .or. b``): that condition
        evaluated once, into a private temporary, so that conditions do not grow with every
        branch (what it reads holds still: each branch's condition is its value there)."""
        if not isinstance(cond, p.LogicalOr):
            return cond
        name = self._names("_tr_reach")
        self.temporaries[name] = TemporaryVariable(name=name, dtype=np.int32, span=self.span())
        self.add(p.Variable(name), TypeCast(np.dtype(np.int32), cond))
        return p.Comparison(p.Variable(name), "!=", 0)

    def _under(self, cond: Expression | bool, build: Any) -> None:
        """Run `build` with `cond` (True: none) among the predicates."""
        if cond is True:
            build()
            return
        self.predicates.append(cond)
        try:
            build()
        finally:
            self.predicates.pop()

    def _branches(self, stmt: Any, rest: list[Any], k: int, labels: dict[int, int]
                  ) -> tuple[list[tuple[int, Expression | bool]], Expression | bool] | None:
        """The forward branches of `stmt` at position `k` of its block (label, condition)
        and the condition of falling through; None for a statement without any."""
        cls = class_name(stmt)
        if cls == "Arithmetic_If_Stmt":
            targets = [_label_number(label) for label in stmt.items[1:]]
            missing = [t for t in targets if labels.get(t, -1) <= k]
            if missing:
                raise UnsupportedConstructError(
                    f"arithmetic IF to label {missing[0]}, which does not follow it in its "
                    f"block, is not supported inside a kernel region; {_ARITHMETIC_IF}",
                    self.span("if"))
            return list(zip(targets, self._signs(stmt.items[0], rest))), False
        if cls == "Goto_Stmt":
            target = _label_number(stmt.items[0])
            return ([(target, True)], False) if labels.get(target, -1) > k else None
        if cls == "If_Stmt" and class_name(stmt.items[1]) == "Goto_Stmt":
            target = _label_number(stmt.items[1].items[0])
            if labels.get(target, -1) <= k:
                return None
            written = set().union(*(self.assigned(n) for n in rest)) if rest else set()
            cond = self.condition(stmt.items[0], written)
            return [(target, cond)], p.LogicalNot(cond)
        return None

    def _signs(self, node: Any, rest: list[Any]) -> list[Expression]:
        """The conditions of the three branches: e < 0, e == 0, neither (gfortran takes the
        third label for a NaN); `e` is evaluated once, before the statements that follow."""
        value = self.expr.visit(node)
        if value.ftype.base not in ("integer", "real"):
            raise UnsupportedConstructError(
                f"arithmetic IF on a {value.ftype.base} value", self.span("if"))
        written = set().union(*(self.assigned(n) for n in rest)) if rest else set()
        if self.read_names(value.expr) & written:
            name = self._names("_tr_sign")
            self.temporaries[name] = TemporaryVariable(name=name, dtype=value.ftype.dtype,
                                                       span=self.span())
            self.add(p.Variable(name), value.expr)
            value = replace(value, expr=p.Variable(name))
        zero = replace(value, expr=0)
        negative, null = compare(value, "<", zero).expr, compare(value, "==", zero).expr
        return [negative, null, p.LogicalAnd((p.LogicalNot(negative), p.LogicalNot(null)))]

    def visit_Exit_Stmt(self, node: Any) -> None:
        """EXIT sets the flag of the loop it ends: the rest of that loop does nothing."""
        target = str(node.items[1]).lower() if node.items[1] is not None else None
        scope = next((c for c in reversed(self.cycle_scopes)
                      if target is None or c.name == target), None)
        if scope is None or scope.exit_flag is None:
            what = ("EXIT of a DO CONCURRENT loop" if scope is not None else
                    "EXIT statement outside the DO loops of the region" if target is None else
                    f"EXIT {target} of a construct that is not a counted DO loop of the region")
            raise UnsupportedConstructError(
                f"{what} is not supported inside a kernel region; put the statements it skips "
                "under an IF", self.span("exit"))
        self.add(p.Variable(scope.exit_flag), np.int32(1))

    def visit_Arithmetic_If_Stmt(self, node: Any) -> None:
        raise UnsupportedConstructError(
            f"arithmetic IF is not supported here inside a kernel region; {_ARITHMETIC_IF}",
            self.span("if"))

    def _goto_span(self) -> SourceSpan:
        """The span of the GO TO (``GOTO`` too) on the line being built."""
        span = self.span()
        m = re.search(r"(?<![\w$])go\s*to", span.source_line or "", re.I)
        return replace(span, col=m.start() + 1) if m else span

    def _skip_rest(self, scope: CycleScope) -> None:
        """Guard the rest of `scope`'s body by the negation of the conditions the CYCLE (or
        GO TO) being built is under."""
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
        return self._flag(cond, scope.base, "_tr_cycle")

    def _flag(self, cond: Expression, base: int, prefix: str) -> Expression:
        """`cond` evaluated here into a private temporary, under the predicates before
        `base` (so that it is set, true or false, wherever the block runs)."""
        name = self._names(prefix)
        self.temporaries[name] = TemporaryVariable(name=name, dtype=np.int32, span=self.span())
        saved = self.predicates[base:]
        del self.predicates[base:]
        try:
            self.add(p.Variable(name), TypeCast(np.dtype(np.int32), cond))
        finally:
            self.predicates.extend(saved)
        return p.Variable(name)


def _either(a: Expression | bool, b: Expression | bool) -> Expression | bool:
    """``a .or. b`` (True, False: constants)."""
    if a is True or b is True:
        return True
    if a is False or b is False:
        return b if a is False else a
    return p.LogicalOr((a, b))


def _both(a: Expression | bool, b: Expression | bool) -> Expression | bool:
    """``a .and. b`` (True, False: constants)."""
    if a is False or b is False:
        return False
    if a is True or b is True:
        return b if a is True else a
    return p.LogicalAnd((a, b))


def _construct_name(do_stmt: Any) -> str | None:
    start = getattr(do_stmt, "get_start_name", None)
    name = start() if start is not None else None
    return name.lower() if name else None


def _exited(do_stmt: Any, body: list[Any]) -> bool:
    """Whether an EXIT in `body` ends the loop of `do_stmt`: an unnamed one outside the DO
    loops inside, or one naming the loop."""
    name = _construct_name(do_stmt)

    def found(nodes: list[Any], nested: bool) -> bool:
        for node in nodes:
            cls = class_name(node)
            if cls == "Exit_Stmt":
                target = node.items[1]
                if (target is None and not nested) or (
                        target is not None and name is not None and str(target).lower() == name):
                    return True
                continue
            inner = nested or cls in _DO_CONSTRUCTS
            if found([k for k in children(node) if not is_comment(k)], inner):
                return True
        return False

    return found(body, False)


#: The DO constructs of fparser (an unnamed EXIT inside one ends that loop).
_DO_CONSTRUCTS = frozenset({"Block_Nonlabel_Do_Construct", "Block_Label_Do_Construct",
                            "Action_Term_Do_Construct"})


def _ends_at(body: list[Any], label: int | None) -> bool:
    """Whether the statement labelled `label` is one of the CONTINUE and END DO statements
    that end a DO loop's `body` (nothing runs after it in the iteration)."""
    for node in reversed(body):
        if is_comment(node):
            continue
        if class_name(node) not in ("Continue_Stmt", "End_Do_Stmt"):
            return False
        if _label_number(getattr(getattr(node, "item", None), "label", None)) == label:
            return True
    return False


def _statement_label(node: Any) -> Any:
    """The label of a statement or of the first statement of a construct (None: none)."""
    if is_comment(node):
        return None
    item = getattr(node, "item", None)
    if item is None and getattr(node, "content", None):
        item = getattr(children(node)[0], "item", None)
    return getattr(item, "label", None)


def _label_number(label: Any) -> int | None:
    """A statement label as a number (``010`` is ``10``); None for none."""
    text = str(label).strip() if label is not None else ""
    return int(text) if text.isdigit() else None


__all__ = ["BranchSupport", "CycleScope"]
