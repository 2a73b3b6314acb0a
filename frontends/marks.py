"""Statement names and tags written in the source (``id(NAME)``, ``tags(...)``, ``block``).

Frontends collect the marks of a region with their source lines; `apply_marks` then names and
tags the kernel's statements by line: a mark applies to the statements of the next source
statement after it, a block to every statement between its two directives.
"""

from __future__ import annotations

from dataclasses import replace

import pymbolic.primitives as p

from frontends.pragmas import Directive
from translator.diagnostics import FrontendError, SourceSpan
from translator.ir.expr import TypeCast, dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, Statement
from translator.records import dataclass


@dataclass(frozen=True, slots=True)
class StatementMark:
    """`line`: the directive's last line; a block covers (line, end_line)."""

    line: int
    id: str | None
    tags: tuple[str, ...]
    span: SourceSpan
    end_line: int | None = None
    #: ``atomic`` (or an OpenMP/OpenACC ``atomic`` inside a loop directive): the statement
    #: after it updates its array element atomically (`Assignment.atomicity`)
    atomic: bool = False


class StatementMarkCollector:
    """Gathers a region's marks in directive order; blocks must close before the region."""

    def __init__(self) -> None:
        self.marks: list[StatementMark] = []
        self.open_block: tuple[Directive, int] | None = None

    def add(self, directive: Directive, line: int) -> None:
        if directive.kind == "block":
            if self.open_block is not None:
                raise FrontendError("nested 'block' directive: close the block opened at line "
                                    f"{self.open_block[1]} with 'end block' first",
                                    directive.span)
            self.open_block = (directive, line)
        elif directive.kind == "end_block":
            if self.open_block is None:
                raise FrontendError("'end block' without a matching 'block tags(...)' "
                                    "directive", directive.span)
            start, first = self.open_block
            self.marks.append(StatementMark(first, None, start.args, start.span, end_line=line))
            self.open_block = None
        else:
            self.marks.append(StatementMark(line, directive.name, directive.args,
                                            directive.span,
                                            atomic=dict(directive.kwargs).get("atomic", False)))

    def finish(self, end_span: SourceSpan) -> tuple[StatementMark, ...]:
        if self.open_block is not None:
            raise FrontendError("'block' directive not closed with 'end block' before the end "
                                "of the region", self.open_block[0].span)
        return tuple(self.marks)


def apply_marks(kernel: Kernel, marks: tuple[StatementMark, ...]) -> Kernel:
    """Name and tag the statements the marks point at (errors at the mark's directive)."""
    if not marks:
        return kernel
    stmts = list(kernel.statements)
    renames: dict[str, str] = {}
    folded: set[str] = set()
    for mark in marks:
        targets = _targets(stmts, mark)
        if not targets:
            raise FrontendError("this directive marks no statement (it must precede a "
                                "statement of the region)", mark.span)
        if mark.atomic:
            k = _atomic_target(stmts, targets, mark)
            stmts[k] = replace(_compare_folded(stmts, k, folded),
                               atomicity=frozenset(stmts[k].assignee_names()))
        for k in targets:
            new_id = _new_id(stmts, k, mark, targets)
            if new_id != stmts[k].id:
                renames[stmts[k].id] = new_id
            stmts[k] = replace(stmts[k], id=new_id, tags=stmts[k].tags | frozenset(mark.tags))
    if folded:   # conditions now inside their atomic updates
        stmts = [replace(s, depends_on=s.depends_on - folded) for s in stmts
                 if s.id not in folded]
    stmts = [_renamed_refs(s, renames) for s in stmts]
    return kernel.copy(statements=tuple(stmts))


def atomic_marks(claims: tuple) -> tuple[StatementMark, ...]:
    """The atomic marks of the ``atomic`` directives inside the loops of a region's OpenMP or
    OpenACC `claims` ((claim, loop line, spelling); `LoopClaim.atomics`)."""
    lines = sorted({atomic for claim, _, _ in claims for atomic in claim.atomics},
                   key=lambda a: a[0])
    return tuple(StatementMark(line, None, (), span, atomic=True) for line, span in lines)


def _atomic_target(stmts: list[Statement], targets: list[int], mark: StatementMark) -> int:
    """The statement of `targets` (those of the source statement after `mark`) that assigns
    an array element: the update made atomic (the legality check and the code generator
    require the form ``x[i] = x[i] OP e``, OP one of + - * max min).  The others compute its
    term (the body of an inlined call)."""
    found = [k for k in targets if isinstance(stmts[k], Assignment)
             and isinstance(stmts[k].assignee, p.Subscript)]
    if len(found) != 1:
        raise FrontendError("an 'atomic' directive must precede one update of an array "
                            "element (x[i] = x[i] + e, x[i] += e, x[i]++; also -, *, max, "
                            "min)", mark.span)
    return found[0]


def _compare_folded(stmts: list[Statement], k: int, folded: set[str]) -> Assignment:
    """OpenMP 5.1's ``atomic compare`` form ``if (v > m[k]) m[k] = v;``: statement `k` stores
    ``v`` where a comparison of ``v`` with the element holds, which is ``m[k] = if(v > m[k],
    v, m[k])`` (evaluated at the statement either way), the conditional maximum the atomic
    check knows (`translator.analysis.atomics`).  The comparison may be the value of a
    condition variable the frontend set just before (``_tr_cond = v > m[k]``) that nothing
    else reads: that statement's id joins `folded` (the caller drops it).  Other statements
    are returned as they are."""
    stmt = stmts[k]
    target, value = stmt.assignee, stmt.expression
    for cond in sorted(stmt.predicates, key=str):
        source, test = None, cond
        if (isinstance(cond, p.Comparison) and cond.operator == "!=" and cond.right == 0
                and isinstance(cond.left, p.Variable)):
            source = _condition_source(stmts, k, cond.left.name)
            test = None if source is None else _uncast(stmts[source].expression)
        if (isinstance(test, p.Comparison) and test.operator in ("<", "<=", ">", ">=")
                and {_uncast(test.left), _uncast(test.right)} == {target, _uncast(value)}):
            if source is not None:
                folded.add(stmts[source].id)
            return replace(stmt, predicates=stmt.predicates - {cond},
                           expression=p.If(test, value, target))
    return stmt


def _condition_source(stmts: list[Statement], k: int, name: str) -> int | None:
    """The statement before `k` that sets the condition variable `name`, where it is set
    once, in the same loops, and only statement `k` reads it."""
    sets = [j for j, s in enumerate(stmts) if isinstance(s, Assignment)
            and isinstance(s.assignee, p.Variable) and s.assignee.name == name]
    readers = [j for j, s in enumerate(stmts)
               if any(name in dependencies(e) for e in s.read_expressions())]
    if len(sets) != 1 or readers != [k] or sets[0] >= k:
        return None
    if stmts[sets[0]].within_inames != stmts[k].within_inames or stmts[sets[0]].predicates:
        return None
    return sets[0]


def _uncast(expr):
    return expr.child if isinstance(expr, TypeCast) else expr


def _targets(stmts: list[Statement], mark: StatementMark) -> list[int]:
    lines = [(s.span.line if s.span is not None else None) for s in stmts]
    if mark.end_line is not None:
        return [k for k, ln in enumerate(lines) if ln is not None and mark.line < ln < mark.end_line]
    after = [ln for ln in lines if ln is not None and ln > mark.line]
    if not after:
        return []
    first = min(after)
    return [k for k, ln in enumerate(lines) if ln == first]


def _new_id(stmts: list[Statement], k: int, mark: StatementMark, targets: list[int]) -> str:
    if mark.id is None:
        return stmts[k].id
    name = mark.id if k == targets[0] else f"{mark.id}_{targets.index(k)}"
    taken = {s.id for j, s in enumerate(stmts) if j != k}
    if name in taken:
        raise FrontendError(f"statement id {name!r} is already used in this region", mark.span)
    return name


def _renamed_refs(stmt: Statement, renames: dict[str, str]) -> Statement:
    if not renames:
        return stmt
    deps = frozenset(renames.get(d, d) for d in stmt.depends_on)
    nosync = frozenset((renames.get(i, i), scope) for i, scope in stmt.no_sync_with)
    if deps == stmt.depends_on and nosync == stmt.no_sync_with:
        return stmt
    return replace(stmt, depends_on=deps, no_sync_with=nosync)
