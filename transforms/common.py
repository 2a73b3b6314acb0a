"""Helpers shared by the transform families: argument checking, names, expression rewriting
that respects substitution rules and `within=`, used inames, dropping inames."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError, TransformError, suggestion
from translator.ir import isl_glue
from translator.ir.expr import (Expression, IRIdentityMapper, IRWalkMapper, Reduction,
                                TypeCast, expr_key)
from translator.ir.kernel import Kernel, SubstitutionRule
from translator.ir.mappers import expression_reduction_inames
from translator.ir.statements import map_expressions as map_statement_expressions
from translator.ir.statements import Statement
from translator.ir.tags import InameTag, parse_tag
from translator.ir.util import FrozenDict, UniqueNameGenerator, split_names
from translator.records import replace

StatementFilter = Callable[[Statement], bool]


# ---------------------------------------------------------------------------------------------
# arguments

def check_iname(kernel: Kernel, iname: Any, transform: str, what: str = "iname") -> str:
    """`iname` must be a string naming an iname of `kernel`."""
    if not isinstance(iname, str):
        raise TransformError(f"{transform}: {what} must be a string, got {iname!r}")
    if iname not in kernel.all_inames:
        raise TransformError(f"{transform}: unknown iname {iname!r}"
                             + suggestion(iname, kernel.all_inames))
    return iname


def name_list(value: str | Iterable[str] | None, transform: str, what: str) -> tuple[str, ...]:
    """Accept ``"a,b"``, ``["a", "b"]`` or None."""
    if value is not None and not isinstance(value, str):
        if not isinstance(value, Iterable):
            raise TransformError(f"{transform}: {what} must be names, got {value!r}")
        value = list(value)
        if not all(isinstance(v, str) for v in value):
            raise TransformError(f"{transform}: {what} must be names, got {value!r}")
    return split_names(value)


def parse_tag_arg(tag: str | InameTag | None, transform: str, what: str) -> InameTag | None:
    """A tag string of the reference's table (without like./unused.) as an `InameTag`."""
    if tag is not None and not isinstance(tag, (str, InameTag)):
        raise TransformError(f"{transform}: {what} must be a tag string, got {tag!r}")
    try:
        return parse_tag(tag)
    except KernelLanguageError as e:
        raise TransformError(f"{transform}: bad {what}: {e.message}") from None


def positive_int(value: Any, transform: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise TransformError(f"{transform}: {what} must be a positive integer, got {value!r}")
    return value


def kernel_names(kernel: Kernel) -> set[str]:
    """Every name a new iname or variable must not collide with."""
    names = set(kernel.all_inames) | set(kernel.arg_names) | set(kernel.temporaries)
    names |= set(kernel.substitutions)
    for d in kernel.domains:
        names |= set(isl_glue.params_of(d))
    return names


def name_generator(kernel: Kernel) -> UniqueNameGenerator:
    return UniqueNameGenerator(kernel_names(kernel))


def new_name(kernel: Kernel, requested: str | None, default: str, transform: str,
             what: str, taken: set[str]) -> str:
    """`requested` (must be free) or a fresh name derived from `default`."""
    if requested is None:
        gen = UniqueNameGenerator(kernel_names(kernel) | taken)
        name = gen(default)
    else:
        if not isinstance(requested, str) or not requested.isidentifier():
            raise TransformError(f"{transform}: {what} must be an identifier, got "
                                 f"{requested!r}")
        if requested in kernel_names(kernel) or requested in taken:
            raise TransformError(f"{transform}: {what} {requested!r} is already used in "
                                 f"kernel {kernel.name!r}")
        name = requested
    taken.add(name)
    return name


# ---------------------------------------------------------------------------------------------
# expressions

ReductionMap = Callable[[Reduction], tuple[str, ...] | None]


#: `Rewriter._direct`'s answer where the mapper must rebuild.
_UNKNOWN = object()
#: Constants the mapper returns as they are (`IdentityMapper.map_constant`).
_CONSTANTS = frozenset((int, float, complex, np.float32, np.float64, np.int32, np.int64))


class Rewriter(IRIdentityMapper):
    """Substitutes free variables by name and renames reduction inames.

    `reduction_inames(reduction)` returns the reduction's new iname tuple (or None to keep
    it).  `bound` names are not substituted (the arguments of a substitution rule).  Inames
    are kernel-global, so a reduction over a substituted iname substitutes in its body too.
    """

    def __init__(self, subst: Mapping[str, Expression], *,
                 reduction_inames: ReductionMap | None = None,
                 bound: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.subst = subst
        self.reduction_inames = reduction_inames
        self.bound = bound

    def with_bound(self, bound: Iterable[str]) -> Rewriter:
        return Rewriter(self.subst, reduction_inames=self.reduction_inames,
                        bound=frozenset(bound))

    def __call__(self, expr: Expression, *args: Any, **kwargs: Any) -> Expression:
        if type(self) is Rewriter and not args and not kwargs:   # (subclasses map otherwise)
            new = self._direct(expr)
            if new is not _UNKNOWN:
                return new
        return super().__call__(expr, *args, **kwargs)

    def _direct(self, expr: Expression) -> Expression:
        """What the mapper gives for `expr`, rebuilt here for the common nodes (the mapper
        dispatches through several calls per node), or `_UNKNOWN` at a node this does not
        rebuild: a class not below, a reduction while `reduction_inames` is set (its answer
        may have effects: the mapper then asks it once), a part the mapper would refuse
        (its `rec_arith` assertion).  Nothing else has effects, so the mapper then starts
        afresh.  Each case is the mapper method's: the same object where no part changed,
        else a new node of the class with the new parts."""
        cls = type(expr)
        if cls is p.Variable:
            return expr if expr.name in self.bound else self.subst.get(expr.name, expr)
        if cls in _CONSTANTS:
            return expr
        if cls is p.Sum or cls is p.Product:
            children = []
            for child in expr.children:
                new = self._direct(child)
                if new is _UNKNOWN or not p.is_arithmetic_expression(new):
                    return _UNKNOWN
                children.append(new)
            if all(a is b for a, b in zip(children, expr.children)):
                return expr
            return cls(tuple(children))
        if cls is tuple:
            items = []
            for item in expr:
                new = self._direct(item)
                if new is _UNKNOWN:
                    return _UNKNOWN
                items.append(new)
            return expr if all(a is b for a, b in zip(items, expr)) else tuple(items)
        if cls is p.Subscript:
            aggregate = self._direct(expr.aggregate)
            index = _UNKNOWN if aggregate is _UNKNOWN else self._direct(expr.index)
            if index is _UNKNOWN:
                return _UNKNOWN
            if aggregate is expr.aggregate and index is expr.index:
                return expr
            return cls(aggregate, index)
        if cls is p.Comparison:
            left = self._direct(expr.left)
            right = _UNKNOWN if left is _UNKNOWN else self._direct(expr.right)
            if right is _UNKNOWN:
                return _UNKNOWN
            if left is expr.left and right is expr.right:
                return expr
            return cls(left, expr.operator, right)
        if cls is p.Quotient or cls is p.FloorDiv or cls is p.Remainder:
            num = self._direct(expr.numerator)
            den = _UNKNOWN if num is _UNKNOWN else self._direct(expr.denominator)
            if den is _UNKNOWN or not (p.is_arithmetic_expression(num)
                                       and p.is_arithmetic_expression(den)):
                return _UNKNOWN
            if num is expr.numerator and den is expr.denominator:
                return expr
            return cls(num, den)
        if cls is TypeCast:
            child = self._direct(expr.child)
            if child is _UNKNOWN:
                return _UNKNOWN
            return expr if child is expr.child else TypeCast(expr.dtype, child)
        if cls is Reduction and self.reduction_inames is None:
            body = self._direct(expr.expr)
            if body is _UNKNOWN:
                return _UNKNOWN
            return expr if body is expr.expr else Reduction(
                expr.operation, tuple(expr.inames), body, expr.allow_simultaneous)
        return _UNKNOWN

    def map_variable(self, expr: p.Variable, *args: Any, **kwargs: Any) -> Expression:
        if expr.name in self.bound:
            return expr
        return self.subst.get(expr.name, expr)

    def map_reduction(self, expr: Reduction, *args: Any, **kwargs: Any) -> Expression:
        body = self.rec(expr.expr)
        inames = expr.inames
        if self.reduction_inames is not None:
            inames = self.reduction_inames(expr) or expr.inames
        if body is expr.expr and inames == expr.inames:
            return expr
        return Reduction(expr.operation, tuple(inames), body, expr.allow_simultaneous)


def statement_expressions(stmt: Statement) -> tuple[Expression, ...]:
    """Every expression of a statement, assignees included."""
    out = list(getattr(stmt, "assignees", ()))
    for field in ("assignee", "expression"):
        if hasattr(stmt, field):
            out.append(getattr(stmt, field))
    return (*out, *sorted(stmt.predicates, key=expr_key))


class _Collector(IRWalkMapper):
    """Reduction inames (`translator.ir.mappers`) and rule invocations under an expression."""

    def __init__(self, rules: Iterable[str]) -> None:
        self.rules = frozenset(rules)
        self.reduction_inames: set[str] = set()
        self.invoked: set[str] = set()

    def visit(self, expr: Any, *args: Any, **kwargs: Any) -> bool:
        if isinstance(expr, p.Call) and isinstance(expr.function, p.Variable):
            if expr.function.name in self.rules:
                self.invoked.add(expr.function.name)
        elif isinstance(expr, p.Variable) and expr.name in self.rules:
            self.invoked.add(expr.name)
        return True


def collect(exprs: Iterable[Expression], rules: Iterable[str] = ()) -> _Collector:
    c = _Collector(rules)
    for e in exprs:
        c.reduction_inames |= expression_reduction_inames(e)
        if c.rules:
            c(e)
    return c


def used_inames(kernel: Kernel) -> frozenset[str]:
    """Inames statements iterate over: their `within_inames` and the inames of reductions in
    them or in substitution rules."""
    used: set[str] = set()
    exprs: list[Expression] = [r.expression for r in kernel.substitutions.values()]
    for s in kernel.statements:
        used |= s.within_inames
        exprs.extend(statement_expressions(s))
    return frozenset(used | collect(exprs).reduction_inames)


# ---------------------------------------------------------------------------------------------
# rewriting a kernel's statements and rules

def rewrite_statements(kernel: Kernel, rewriter: Rewriter, selected: StatementFilter,
                       ) -> Kernel:
    """Apply `rewriter` to the selected statements and to the substitution rules they use.

    A rule used only by selected statements is rewritten in place; a rule that changes and
    is also used by other statements gets a rewritten copy under a new name, which the
    selected statements (and rewritten rules) then invoke.  Returns `kernel` if nothing
    changed.
    """
    rules = kernel.substitutions
    chosen = [s for s in kernel.statements if selected(s)]
    if not rules:
        return _replace_statements(kernel, {s.id: map_statement_expressions(s, rewriter)
                                            for s in chosen})
    calls = {name: collect([r.expression], rules).invoked for name, r in rules.items()}
    # with every statement selected, rules no statement uses are rewritten too
    used_in = (set(rules) if len(chosen) == len(kernel.statements)
               else _reachable(chosen, rules, calls))
    used_out = _reachable([s for s in kernel.statements if not selected(s)], rules, calls)
    changed = _changed_rules(rules, calls, used_in, rewriter)
    gen = name_generator(kernel)
    renames = {n: (gen(n) if n in used_out else n) for n in sorted(changed)}
    rename = Rewriter({o: p.Variable(n) for o, n in renames.items() if o != n})
    new_rules = dict(rules)
    for old_name, name in renames.items():
        rule = rules[old_name]
        body = rename(rewriter.with_bound(rule.arguments)(rule.expression))
        new_rules[name] = replace(rule, name=name, expression=body)
    new_stmts = {s.id: map_statement_expressions(s, lambda e: rename(rewriter(e)))
                 for s in chosen}
    kernel = _replace_statements(kernel, new_stmts)
    if new_rules != dict(rules):
        kernel = replace(kernel, substitutions=FrozenDict(new_rules))
    return kernel


def _reachable(stmts: Iterable[Statement], rules: Mapping[str, SubstitutionRule],
               calls: Mapping[str, set[str]]) -> set[str]:
    todo = set(collect([e for s in stmts for e in statement_expressions(s)], rules).invoked)
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo |= calls[name]
    return seen


def _changed_rules(rules: Mapping[str, SubstitutionRule], calls: Mapping[str, set[str]],
                   used_in: set[str], rewriter: Rewriter) -> set[str]:
    """Rules (reachable from selected statements) whose body changes, directly or because a
    rule they invoke changes."""
    changed = {n for n in used_in
               if rewriter.with_bound(rules[n].arguments)(rules[n].expression)
               is not rules[n].expression}
    grew = True
    while grew:
        grew = False
        for n in sorted(used_in - changed):
            if calls[n] & changed:
                changed.add(n)
                grew = True
    return changed


def _replace_statements(kernel: Kernel, new: Mapping[str, Statement]) -> Kernel:
    if all(new[sid] is kernel.id_to_statement[sid] for sid in new):
        return kernel
    return replace(kernel, statements=tuple(new.get(s.id, s) for s in kernel.statements))


def map_within_inames(kernel: Kernel, fn: Callable[[Statement], frozenset[str]]) -> Kernel:
    """Set each statement's `within_inames` to `fn(statement)`."""
    stmts = []
    for s in kernel.statements:
        new = fn(s)
        stmts.append(s if new == s.within_inames else replace(s, within_inames=new))
    if all(a is b for a, b in zip(stmts, kernel.statements)):
        return kernel
    return replace(kernel, statements=tuple(stmts))


# ---------------------------------------------------------------------------------------------
# inames

def drop_inames(kernel: Kernel, inames: Iterable[str]) -> Kernel:
    """Project `inames` out of every domain and forget their tags and loop priorities."""
    inames = frozenset(inames)
    if not inames:
        return kernel
    domains = tuple(isl_glue.project_out_names(d, sorted(inames)) for d in kernel.domains)
    tags = FrozenDict((k, v) for k, v in kernel.iname_tags.items() if k not in inames)
    prios = set()
    for prio in kernel.loop_priority:
        kept = tuple(i for i in prio if i not in inames)
        if len(kept) > 1:
            prios.add(kept)
    return replace(kernel, domains=domains, iname_tags=tags, loop_priority=frozenset(prios))


def replace_in_priorities(priorities: frozenset[tuple[str, ...]],
                          mapping: Mapping[str, tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """Replace each iname in each priority tuple by its image (a tuple of inames)."""
    out = set()
    for prio in priorities:
        new: list[str] = []
        for i in prio:
            for j in mapping.get(i, (i,)):
                if j not in new:
                    new.append(j)
        if len(new) > 1:
            out.add(tuple(new))
    return frozenset(out)
