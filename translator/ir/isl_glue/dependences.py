"""isl glue for analysis: conflicts between two statement instances (legality) and
which elements instances touch per iteration (privatisation).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import islpy as isl
import pymbolic.primitives as p

from translator.diagnostics import DomainError
from translator.ir.expr import Expression, dependencies, typed_key
from translator.ir.isl_glue.codegen import _condition_set
from translator.ir.isl_glue.core import (
    ALPHA, _align_params, _all_to_params, _param_set_aligned, aff_from_expr, alpha_names,
    combined_domain, dim_type, memoized, project_onto, renamed_text, union_all,
)


def instance_set(domains: Sequence[isl.BasicSet], inames: Iterable[str],
                 conditions: Iterable[Expression] = (), rename: dict[str, str] | None = None,
                 assumptions: isl.BasicSet | None = None) -> isl.Set:
    """The instances of a statement over `inames` as a parameter-only set (every iname becomes
    a parameter, renamed by `rename`), restricted by the affine `conditions` (others are
    ignored: an over-approximation, which is safe for conflict search)."""
    inames, conditions = tuple(inames), tuple(conditions)
    if not isinstance(domains, tuple):
        return _instance_set(domains, inames, conditions, rename, assumptions)
    try:
        key = ("instances", id(domains), inames, typed_key(conditions),
               tuple(sorted((rename or {}).items())), id(assumptions))
    except TypeError:   # an unhashable condition: compute, do not remember
        return _instance_set(domains, inames, conditions, rename, assumptions)
    return memoized(key, (domains, assumptions),
                    lambda: _instance_set(domains, inames, conditions, rename, assumptions))


def _instance_set(domains: Sequence[isl.BasicSet], inames: tuple[str, ...],
                  conditions: tuple[Expression, ...], rename: dict[str, str] | None,
                  assumptions: isl.BasicSet | None) -> isl.Set:
    dom = isl.Set.from_basic_set(combined_domain(domains, inames))
    dom = project_onto(dom, inames)
    for c in conditions:
        space = _align_params(dom, dependencies(c)).get_space()
        piece = _exact_condition_set(space, c)
        piece = _condition_set(space, c) if piece is None else piece
        if piece is not None:
            dom = _align_params(dom, dependencies(c)).intersect(piece)
    if assumptions is not None:
        dom = dom.intersect_params(_param_set_aligned(assumptions, dom))
    dom = _all_to_params(dom)
    for old, new in (rename or {}).items():
        k = dom.find_dim_by_name(dim_type.param, old)
        if k >= 0:
            dom = dom.set_dim_name(dim_type.param, k, new)
    return dom


def _exact_condition_set(space: isl.Space, cond: Expression) -> isl.Set | None:
    """The set where `cond` holds, exactly, or None: affine comparisons and their ``.and.``,
    ``.or.`` and ``.not.`` (the condition of an ``else`` branch, ``not (j == 1)``).  A
    condition the set would leave out must not widen a statement's instances: a subscript
    guarded by it would seem to leave its extent (`params_keeping_inside`)."""
    if isinstance(cond, p.Comparison):
        return _condition_set(space, cond)
    if isinstance(cond, p.LogicalNot):
        inner = _exact_condition_set(space, cond.child)
        return None if inner is None else inner.complement()
    if not isinstance(cond, (p.LogicalAnd, p.LogicalOr)):
        return None
    pieces = [_exact_condition_set(space, c) for c in cond.children]
    if any(piece is None for piece in pieces):
        return None
    out = pieces[0]
    for piece in pieces[1:]:
        out = out.intersect(piece) if isinstance(cond, p.LogicalAnd) else out.union(piece)
    return out


def find_conflict(first: isl.Set, second: isl.Set,
                  equalities: Sequence[tuple[Expression, Expression]],
                  differ: Sequence[tuple[str, str]],
                  less: Sequence[tuple[Expression, Expression]] = ()) -> dict[str, int] | None:
    """A point where both instance sets hold, every ``lhs == rhs`` and every ``lhs < rhs`` of
    `less` holds, and at least one pair of names in `differ` has different values; None if
    there is none (proved).

    Names are parameters (see `instance_set`).  Returns the point's values by name.
    """
    if differ and all(forces_equal(equalities, a, b) for a, b in differ):
        return None
    try:
        key = ("conflict", id(first), id(second), typed_key(tuple(equalities)),
               tuple(differ), typed_key(tuple(less)))
    except TypeError:
        return _find_conflict(first, second, equalities, differ, less)
    value = memoized(key, (first, second),
                     lambda: _alpha_conflict(first, second, equalities, differ, less))
    return None if value is None else dict(value)


def _alpha_conflict(first: isl.Set, second: isl.Set,
                    equalities: Sequence[tuple[Expression, Expression]],
                    differ: Sequence[tuple[str, str]],
                    less: Sequence[tuple[Expression, Expression]]) -> dict[str, int] | None:
    """`_find_conflict`, remembered up to the names of the parameters: the kernels of a
    region cut into many launches ask the same question about loops that differ in their
    names only (`alpha_names`).  The point found is the same, with the names of this call."""
    if first.dim(dim_type.set) or second.dim(dim_type.set):
        return _find_conflict(first, second, equalities, differ, less)
    names = alpha_names([*first.get_var_names(dim_type.param),
                         *second.get_var_names(dim_type.param), *(n for d in differ for n in d)])
    if names is None:
        return _find_conflict(first, second, equalities, differ, less)
    sets = (_alpha_text(first, names), _alpha_text(second, names))
    if None in sets:
        return _find_conflict(first, second, equalities, differ, less)
    # a name outside `names` (a parameter of a subscript only) stays as it is in the key,
    # apart from the renamed ones (`typed_key`)
    key = ("conflict~", len(equalities), sets, typed_key((*equalities, *less), names),
           tuple((names[a], names[b]) for a, b in differ))
    found = memoized(key, (), lambda: _positional(
        _find_conflict(first, second, equalities, differ, less), names))
    if found is None:
        return None
    back = {new: old for old, new in names.items()}
    return {back.get(n, n): v for n, v in found}


def _alpha_text(s: isl.Set, names: dict[str, str]) -> str | None:
    """The text of `s` with `names` renamed (None where it already holds a positional name),
    remembered for `s` (the instance sets are themselves remembered: each is asked about
    once per pair of accesses and mapping)."""
    return memoized(("alpha_text", id(s), tuple(names.items())), (s,),
                    lambda: _renamed_set_text(s, names))


def _renamed_set_text(s: isl.Set, names: dict[str, str]) -> str | None:
    text = str(s)
    return None if ALPHA in text else renamed_text(text, names)


def _positional(point: dict[str, int] | None, names: dict[str, str]
                ) -> tuple[tuple[str, int], ...] | None:
    return None if point is None else tuple((names.get(n, n), v) for n, v in point.items())


def _find_conflict(first: isl.Set, second: isl.Set,
                   equalities: Sequence[tuple[Expression, Expression]],
                   differ: Sequence[tuple[str, str]],
                   less: Sequence[tuple[Expression, Expression]]) -> dict[str, int] | None:
    names: set[str] = set()
    for lhs, rhs in (*equalities, *less):
        names |= dependencies(lhs) | dependencies(rhs)
    for a, b in differ:
        names |= {a, b}
    both = first.align_params(second.get_space())
    both = _align_params(both, names)
    second = second.align_params(both.get_space())
    both = both.intersect(second.align_params(both.get_space()))
    space = both.get_space()
    for lhs, rhs in equalities:
        both = both.intersect(aff_from_expr(space, lhs).eq_set(aff_from_expr(space, rhs)))
    for lhs, rhs in less:
        both = both.intersect(aff_from_expr(space, lhs).lt_set(aff_from_expr(space, rhs)))
    if differ:
        apart = None
        for a, b in differ:
            pa, pb = aff_from_expr(space, p.Variable(a)), aff_from_expr(space, p.Variable(b))
            piece = pa.lt_set(pb).union(pa.gt_set(pb))
            apart = piece if apart is None else apart.union(piece)
        both = both.intersect(apart)
    if both.is_empty():
        return None
    point = both.sample_point()
    return {both.get_dim_name(dim_type.param, k):
            int(point.get_coordinate_val(dim_type.param, k).to_python())
            for k in range(both.dim(dim_type.param))}


def forces_equal(equalities: Sequence[tuple[Expression, Expression]], a: str, b: str) -> bool:
    """Whether one of `equalities` reads ``a + c == b + c`` (an integer c): then a == b, and no
    point can have them differ.  The common case of legality (``x(i)`` against ``x(i')``)
    decided without building a set."""
    return any(_offset_of(lhs, a) is not None and _offset_of(lhs, a) == _offset_of(rhs, b)
               for lhs, rhs in equalities)


def iname_offset(expr: Expression, name: str) -> int | None:
    """c if `expr` is ``name + c`` (c an integer, possibly 0), else None (no isl work)."""
    return _offset_of(expr, name)


def _offset_of(expr: Expression, name: str) -> int | None:
    """c if `expr` is ``name + c`` (c an integer, possibly 0), else None."""
    if isinstance(expr, p.Variable):
        return 0 if expr.name == name else None
    if isinstance(expr, p.Sum) and len(expr.children) == 2:
        var, const = expr.children
        if isinstance(const, p.Variable):
            var, const = const, var
        if (isinstance(var, p.Variable) and var.name == name and isinstance(const, int)
                and not isinstance(const, bool)):
            return const
    return None


def kl_as_basic_set(obj: object, what: str = "domain") -> isl.BasicSet | None:
    """`obj` as a BasicSet if it is an isl set (DomainError if not convex); None otherwise."""
    if isinstance(obj, isl.BasicSet):
        return obj
    if not isinstance(obj, isl.Set):
        return None
    bsets = obj.coalesce().get_basic_sets()
    if len(bsets) > 1:
        raise DomainError(f"{what} {str(obj)!r} is not convex (a disjunction); it must be a "
                          "conjunction of affine constraints")
    return bsets[0] if bsets else isl.BasicSet.empty(obj.get_space())


def access_footprint(domains: Sequence[isl.BasicSet], inames: Iterable[str],
                     conditions: Iterable[Expression], index: Sequence[Expression],
                     keep: Iterable[str], assumptions: isl.BasicSet | None = None) -> isl.Set:
    """{(keep inames, element) : some instance touches element} as a parameter-only set.

    Element coordinates are the parameters ``_tr_e0``, ``_tr_e1``, ...; inames not in `keep`
    are projected out (existentially quantified)."""
    inames, keep = tuple(inames), frozenset(keep)
    s = instance_set(domains, inames, conditions, assumptions=assumptions)
    # the footprint names no iname outside `keep`: remembered up to their names
    names = alpha_names(n for n in inames if n not in keep)
    text = None if names is None else _alpha_text(s, names)
    if text is None:
        return _footprint(s, inames, index, keep)
    try:    # the subscripts by structure: a renamed name never meets a kept one
        key = ("footprint~", text, typed_key(tuple(index), names), tuple(sorted(keep)))
    except TypeError:
        return _footprint(s, inames, index, keep)
    return memoized(key, (), lambda: _footprint(s, inames, index, keep))


def _footprint(s: isl.Set, inames: Iterable[str], index: Sequence[Expression],
               keep: Iterable[str]) -> isl.Set:
    elems = [f"_tr_e{k}" for k in range(len(index))]
    s = _align_params(s, elems)
    for name, expr in zip(elems, index):
        s = _align_params(s, dependencies(expr))
        space = s.get_space()
        s = s.intersect(aff_from_expr(space, p.Variable(name)).eq_set(aff_from_expr(space, expr)))
    wanted = set(keep) | set(elems)
    inames = set(inames)
    for n in reversed(s.get_var_names(dim_type.param)):
        if n in inames and n not in wanted:
            s = s.project_out(dim_type.param, s.find_dim_by_name(dim_type.param, n), 1)
    return s


def footprints_conflict_free(footprints: list[tuple[isl.Set, bool]], iname: str) -> bool:
    """Whether no write footprint of `footprints` meets any footprint at another `iname`."""
    if not any(is_write for _, is_write in footprints):
        return True
    writes = union_all([fp for fp, is_write in footprints if is_write], coalesce=False)
    every = union_all([fp for fp, _ in footprints], coalesce=False)
    other = "_tr_other_" + iname
    every = every.set_dim_name(dim_type.param, every.find_dim_by_name(dim_type.param, iname),
                               other)
    both = writes.align_params(every.get_space())
    both = both.intersect(every.align_params(both.get_space()))
    space = both.get_space()
    if not both.add_constraint(isl.Constraint.ineq_from_names(
            space, {other: 1, iname: -1, 1: -1})).is_empty():
        return False    # a pair at iname < other
    # one footprint against itself is symmetric: a pair at iname > other is one at <
    return len(footprints) == 1 or both.add_constraint(isl.Constraint.ineq_from_names(
        space, {iname: 1, other: -1, 1: -1})).is_empty()


def param_set_subset(a: isl.Set, b: isl.Set | None) -> bool:
    """Whether every point of `a` is in `b` (parameter-only sets; None is empty)."""
    if b is None:
        return a.is_empty()
    a2 = a.align_params(b.get_space())
    return a2.is_subset(b.align_params(a2.get_space()))


def params_keeping_inside(inside: isl.Set, index: Expression, extent: Expression | None,
                          inames: Iterable[str]) -> isl.BasicSet | None:
    """The parameter values for which every instance of `inside` (a parameter-only set, see
    `instance_set`) has ``0 <= index < extent`` (only ``0 <= index`` where `extent` is None),
    with `inames` projected out: a convex set, or None when it is not convex (or isl cannot
    take `index`)."""
    names = dependencies(index) | (dependencies(extent) if extent is not None else set())
    try:
        base = _align_params(inside, names)
        space = base.get_space()
        idx = aff_from_expr(space, index)
        below = idx.lt_set(aff_from_expr(space, 0))
        bad = base.intersect(below if extent is None
                             else below.union(idx.ge_set(aff_from_expr(space, extent))))
    except (DomainError, isl.Error):
        return None
    for name in inames:
        k = bad.find_dim_by_name(dim_type.param, name)
        if k >= 0:
            bad = bad.project_out(dim_type.param, k, 1)
    some = base
    for name in inames:
        k = some.find_dim_by_name(dim_type.param, name)
        if k >= 0:
            some = some.project_out(dim_type.param, k, 1)
    some = some.params()
    # where `inside` has no instance nothing leaves the extent: the condition needs to hold
    # only where it has some (gist), which keeps ``cols >= 1`` from ``cols >= 1 or rows <= 0``
    ok = bad.params().complement().gist(some).coalesce()
    if ok.n_basic_set() != 1 or some.intersect(ok.align_params(some.get_space())).is_empty():
        return None     # not convex, or it would leave `inside` no instance
    return ok.get_basic_sets()[0]


def leaves_for_all_params(inside: isl.Set, index: Expression, extent: Expression,
                          inames: Iterable[str]) -> bool:
    """Whether, for every parameter value where `inside` (see `instance_set`) has an instance,
    some instance has `index` outside ``0 .. extent-1``: a subscript that leaves its extent
    whatever the caller passes (False when isl cannot take `index`)."""
    try:
        base = _align_params(inside, dependencies(index) | dependencies(extent))
        space = base.get_space()
        idx, ext = aff_from_expr(space, index), aff_from_expr(space, extent)
        bad = base.intersect(idx.lt_set(aff_from_expr(space, 0)).union(idx.ge_set(ext)))
    except (DomainError, isl.Error):
        return False
    some, bad = base, bad
    for name in inames:
        k = some.find_dim_by_name(dim_type.param, name)
        if k >= 0:
            some = some.project_out(dim_type.param, k, 1)
            bad = bad.project_out(dim_type.param, k, 1)
    some, bad = some.params(), bad.params()
    return not some.is_empty() and some.is_subset(bad.align_params(some.get_space()))
