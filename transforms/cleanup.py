"""Small clean-ups and queries loopy users call: remove_unused_arguments, fold_constants,
simplify_indices, remove_inames_from_insn, concatenate_arrays, map_instructions and
find_instructions.

None of them changes what a kernel computes: they drop what nothing uses, rewrite integer
arithmetic to an equal form, or hand statements to the caller.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import TransformError
from translator.ir import isl_glue
from translator.ir.data import ArrayArg, TemporaryVariable
from translator.ir.expr import Expression, IRIdentityMapper, dependencies
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement, map_expressions
from translator.ir.util import FrozenDict

from transforms.common import check_iname, name_list, new_name, statement_expressions
from transforms.match import parse_match
from transforms.registry import transform

# ---------------------------------------------------------------------------------------------
# queries


def find_instructions(kernel: Kernel, insn_match: Any) -> list[Statement]:
    """The statements `insn_match` selects, in kernel order (a match expression of
    docs/transforms.md, "Matching contexts"; an empty list when none matches)."""
    return list(parse_match(insn_match).filter(kernel))


def map_instructions(kernel: Kernel, insn_match: Any,
                     f: Callable[[Statement], Statement]) -> Kernel:
    """Replace each statement `insn_match` selects by `f(statement)` (Python API only: a
    pragma cannot pass a function).  `f` must keep the statement's id."""
    if not callable(f):
        raise TransformError(f"map_instructions: f must be a function, got {f!r}")
    chosen = {s.id for s in find_instructions(kernel, insn_match)}
    stmts = []
    for s in kernel.statements:
        new = f(s) if s.id in chosen else s
        if not isinstance(new, Statement) or new.id != s.id:
            raise TransformError(f"map_instructions: f must return a statement with id "
                                 f"{s.id!r}, got {new!r}")
        stmts.append(new)
    return kernel if all(a is b for a, b in zip(stmts, kernel.statements)) else \
        replace(kernel, statements=tuple(stmts))


# ---------------------------------------------------------------------------------------------
# unused arguments


def _names_in_data(kernel: Kernel) -> set[str]:
    """Names the domains, assumptions, shapes and offsets of the kernel's data use."""
    names: set[str] = set()
    for d in kernel.domains:
        names |= set(isl_glue.params_of(d))
    if kernel.assumptions is not None:
        names |= set(isl_glue.params_of(kernel.assumptions))
    data = [a for a in kernel.args if isinstance(a, ArrayArg)] + list(kernel.temporaries.values())
    for item in data:
        for e in (*(item.shape or ()), getattr(item, "offset", 0)):
            if e is not None:
                names |= dependencies(e)
    return names


@transform()
def remove_unused_arguments(kernel: Kernel) -> Kernel:
    """Drop the arguments no statement, substitution rule, domain, assumption or array shape
    names.  Example::

        before: args = (a, out, unused, n)
        remove_unused_arguments(knl)
        after:  args = (a, out, n)
    """
    used = _names_in_data(kernel)
    for s in kernel.statements:
        for e in statement_expressions(s):
            used |= dependencies(e)
    for rule in kernel.substitutions.values():
        used |= dependencies(rule.expression)
    kept = tuple(a for a in kernel.args if a.name in used)
    return kernel if len(kept) == len(kernel.args) else replace(kernel, args=kept)


# ---------------------------------------------------------------------------------------------
# integer constant folding and index simplification


class _IntegerFolder(IRIdentityMapper):
    """Folds sums and products of integer literals (floating-point literals are left alone:
    folding them in double precision could round differently from the kernel's type)."""

    def map_sum(self, expr: p.Sum, *args: Any, **kwargs: Any) -> Expression:
        return _folded(p.Sum, [self.rec(c) for c in expr.children], 0, lambda a, b: a + b)

    def map_product(self, expr: p.Product, *args: Any, **kwargs: Any) -> Expression:
        children = [self.rec(c) for c in expr.children]
        if any(_is_int(c) and c == 0 for c in children) and \
                all(_is_int(c) or isinstance(c, p.Variable) for c in children):
            return 0
        return _folded(p.Product, children, 1, lambda a, b: a * b)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _folded(cls: type, children: list[Expression], unit: int,
            op: Callable[[int, int], int]) -> Expression:
    const = unit
    rest = []
    flat = [g for c in children for g in (c.children if isinstance(c, cls) else (c,))]
    for c in flat:
        if _is_int(c):
            const = op(const, c)
        else:
            rest.append(c)
    if const != unit or not rest:
        rest = [const, *rest] if cls is p.Product else [*rest, const]
    return rest[0] if len(rest) == 1 else cls(tuple(rest))


def _rewrite_all(kernel: Kernel, fn: Callable[[Expression], Expression]) -> Kernel:
    stmts = tuple(map_expressions(s, fn) for s in kernel.statements)
    rules = FrozenDict({n: replace(r, expression=fn(r.expression))
                        for n, r in kernel.substitutions.items()})
    if stmts == kernel.statements and rules == kernel.substitutions:
        return kernel
    return replace(kernel, statements=stmts, substitutions=rules)


@transform()
def fold_constants(kernel: Kernel) -> Kernel:
    """Fold sums and products of integer constants in every statement and substitution rule
    (`2*3*i + 4 - 4` becomes `6*i`).  Example::

        before: out[2*3*i + 1 - 1] = a[i]
        fold_constants(knl)
        after:  out[6*i] = a[i]
    """
    return _rewrite_all(kernel, _IntegerFolder())


class _IndexSimplifier(IRIdentityMapper):
    """Rewrites each affine subscript into isl's normal form (terms collected, constants
    folded); other subscripts are only folded."""

    def __init__(self, names: frozenset[str]) -> None:
        super().__init__()
        self.names = names
        self.fold = _IntegerFolder()

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> Expression:
        index = expr.index if isinstance(expr.index, tuple) else (expr.index,)
        new = tuple(self._simplified(self.rec(i)) for i in index)
        if new == index:
            return expr
        return p.Subscript(expr.aggregate, new if isinstance(expr.index, tuple) else new[0])

    def _simplified(self, index: Expression) -> Expression:
        folded = self.fold(index)
        names = sorted(dependencies(folded))
        if not names or not set(names) <= self.names or not isl_glue.is_affine(folded, names):
            return folded
        return isl_glue.simplified_affine(folded, names)


@transform()
def simplify_indices(kernel: Kernel) -> Kernel:
    """Put affine array subscripts into a normal form: like terms collected, integer
    constants folded (`a[i + 1 + i - 1]` becomes `a[2*i]`).  Subscripts that are not affine in
    inames and parameters are only constant-folded.  Example::

        before: out[i + 1 + i - 1] = a[(i + 2) - 2]
        simplify_indices(knl)
        after:  out[2*i] = a[i]
    """
    names = set(kernel.all_inames)
    for d in kernel.domains:
        names |= set(isl_glue.params_of(d))
    names |= {a.name for a in kernel.args if not isinstance(a, ArrayArg)}
    return _rewrite_all(kernel, _IndexSimplifier(frozenset(names)))


# ---------------------------------------------------------------------------------------------
# inames of statements


@transform()
def remove_inames_from_insn(kernel: Kernel, inames: str | Iterable[str],
                            insn_match: Any = None) -> Kernel:
    """Remove `inames` from the loops the matched statements (default: all) run in.  A
    statement whose expressions use one of them keeps it (that would change its meaning):
    an error.  Example::

        before: out[i] = a[i]  {inames=i:j}
        remove_inames_from_insn(knl, "j")
        after:  out[i] = a[i]  {inames=i}
    """
    name = "remove_inames_from_insn"
    drop = {check_iname(kernel, n, name) for n in name_list(inames, name, "inames")}
    chosen = {s.id for s in find_instructions(kernel, insn_match)}
    stmts = []
    for s in kernel.statements:
        if s.id in chosen and s.within_inames & drop:
            uses = set().union(*(dependencies(e) for e in statement_expressions(s))) & drop
            if uses:
                raise TransformError(f"{name}: statement {s.id!r} uses iname "
                                     f"{sorted(uses)[0]!r}; it cannot run outside that loop",
                                     s.span)
            s = replace(s, within_inames=s.within_inames - drop)
        stmts.append(s)
    return replace(kernel, statements=tuple(stmts))


# ---------------------------------------------------------------------------------------------
# concatenating temporaries


@transform()
def concatenate_arrays(kernel: Kernel, array_names: str | Iterable[str],
                       new_name: str | None = None, axis_nr: int = 0) -> Kernel:
    """Merge temporaries of the same type, rank and extents except along axis `axis_nr` into
    one temporary, laid end to end along that axis; every access is shifted to its part.
    Example::

        before: t1[2], t2[3]   (temporaries)
        concatenate_arrays(knl, "t1, t2", "t")
        after:  t[5];  t1[k] -> t[k],  t2[k] -> t[2 + k]
    """
    name = "concatenate_arrays"
    names = name_list(array_names, name, "array_names")
    temps = [_concatenable(kernel, n, name) for n in names]
    axis = _check_axis(temps, axis_nr, name)
    target = new_name if new_name is not None and new_name in names else \
        new_name_for(kernel, new_name, names[0], name)
    offsets, start = {}, 0
    for t in temps:
        offsets[t.name] = start
        start += t.shape[axis]
    shape = (*temps[0].shape[:axis], start, *temps[0].shape[axis + 1:])
    merged = replace(temps[0], name=target, shape=shape, dim_tags=None,
                     initializer=None, read_only=False)
    mapper = _ShiftAccesses(offsets, target, axis)
    kernel = _rewrite_all(kernel, mapper)
    new_temps = {n: t for n, t in kernel.temporaries.items() if n not in offsets}
    new_temps[target] = merged
    return replace(kernel, temporaries=FrozenDict(new_temps))


def new_name_for(kernel: Kernel, requested: str | None, default: str, transform: str) -> str:
    return new_name(kernel, requested, default, transform, "new_name", set())


def _concatenable(kernel: Kernel, array: str, transform: str) -> TemporaryVariable:
    temp = kernel.temporaries.get(array)
    if temp is None:
        raise TransformError(f"{transform}: {array!r} is not a temporary of kernel "
                             f"{kernel.name!r} (only temporaries can be concatenated)")
    if temp.initializer is not None:
        raise TransformError(f"{transform}: temporary {array!r} has an initializer")
    if not temp.shape or not all(_is_int(e) for e in temp.shape):
        raise TransformError(f"{transform}: temporary {array!r} needs a constant shape, "
                             f"got {temp.shape!r}")
    return temp


def _check_axis(temps: list[TemporaryVariable], axis: int, transform: str) -> int:
    rank = len(temps[0].shape)
    if isinstance(axis, bool) or not isinstance(axis, int) or not 0 <= axis < rank:
        raise TransformError(f"{transform}: axis_nr must be an axis of the arrays "
                             f"(0..{rank - 1}), got {axis!r}")
    for t in temps[1:]:
        other = (*t.shape[:axis], *t.shape[axis + 1:])
        if len(t.shape) != rank or other != (*temps[0].shape[:axis],
                                             *temps[0].shape[axis + 1:]):
            raise TransformError(f"{transform}: {t.name!r} (shape {t.shape}) does not match "
                                 f"{temps[0].name!r} (shape {temps[0].shape}) off axis {axis}")
        if t.dtype != temps[0].dtype or t.address_space != temps[0].address_space:
            raise TransformError(f"{transform}: {t.name!r} and {temps[0].name!r} differ in "
                                 "type or address space")
    return axis


class _ShiftAccesses(IRIdentityMapper):
    def __init__(self, offsets: dict[str, int], target: str, axis: int) -> None:
        super().__init__()
        self.offsets, self.target, self.axis = offsets, target, axis

    def map_subscript(self, expr: p.Subscript, *args: Any, **kwargs: Any) -> Expression:
        agg = expr.aggregate
        if not isinstance(agg, p.Variable) or agg.name not in self.offsets:
            return super().map_subscript(expr, *args, **kwargs)
        index = list(expr.index if isinstance(expr.index, tuple) else (expr.index,))
        index = [self.rec(i) for i in index]
        shift = self.offsets[agg.name]
        if shift:
            index[self.axis] = _folded(p.Sum, [index[self.axis], shift], 0, lambda a, b: a + b)
        return p.Subscript(p.Variable(self.target), tuple(index) if len(index) > 1
                           else index[0])
