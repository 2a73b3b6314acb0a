"""isl glue for transforms: splitting, joining, duplicating, fixing and renaming dims;
inames mapped through a relation (map_domain, affine_map_inames).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
import re

import islpy as isl
import pymbolic.primitives as p

from translator.diagnostics import DomainError
from translator.ir.expr import Expression, dependencies
from translator.ir.isl_glue.core import (
    _all_to_params, _isl_reason, aff_from_expr, combined_domain, dim_type, expr_from_aff,
    expr_from_pwaff, iname_bounds, inames_of, memoized, params_to_set_dims, project_onto,
)
from translator.ir.isl_glue.kernel_language import kl_free_names


def _dim_position(s: isl.BasicSet, name: str) -> tuple[isl.dim_type, int] | None:
    """Where `name` lives in `s`: a set dim (an iname) or a parameter; None if absent."""
    return s.get_var_dict().get(name)


def _single_basic_set(s: isl.Set, what: str) -> isl.BasicSet:
    """A Set known to be convex -> BasicSet; a disjunction is a DomainError naming `what`."""
    pieces = s.coalesce().get_basic_sets()
    if not pieces:
        return isl.BasicSet.empty(s.get_space())
    if len(pieces) > 1:
        raise DomainError(f"{what} would make a domain non-convex")
    return pieces[0]


def split_dim(bset: isl.BasicSet, name: str, outer: str, inner: str, length: int, *,
              fixed_is_inner: bool = True, keep_original: bool = False) -> isl.BasicSet:
    """Replace dim `name` of `bset` (set dim or parameter) by `outer`, `inner` (same kind,
    inserted at its position) with ``name == inner + length*outer, 0 <= inner < length``
    (``fixed_is_inner``) or ``name == outer + length*inner, 0 <= outer < length``.

    With `keep_original`, `name` stays with its own constraints and the new dims are tied to a
    copy of it (they are independent of `name`), as needed when some statements still use it.
    """
    # by identity (a domain parsed from the same text is one object, `translator.ir.parse`):
    # the result becomes a kernel's domain, from which analysis draws isl sample points, so
    # it must be this set's own, not that of another set printed alike
    key = ("split_dim", id(bset), name, outer, inner, length, fixed_is_inner, keep_original)
    return memoized(key, (bset,), lambda: _split_dim(bset, name, outer, inner, length,
                                                     fixed_is_inner, keep_original))


def _split_dim(bset: isl.BasicSet, name: str, outer: str, inner: str, length: int,
               fixed_is_inner: bool, keep_original: bool) -> isl.BasicSet:
    where = _dim_position(bset, name)
    if where is None:
        return bset
    dt, k = where
    s = (bset.insert_dims(dt, k + 1, 2).set_dim_name(dt, k + 1, outer)
         .set_dim_name(dt, k + 2, inner))
    space = s.get_space()
    fixed, free = (inner, outer) if fixed_is_inner else (outer, inner)
    linked = (s.add_constraint(isl.Constraint.eq_from_names(
                  space, {name: 1, fixed: -1, free: -length}))
              .add_constraint(isl.Constraint.ineq_from_names(space, {fixed: 1}))
              .add_constraint(isl.Constraint.ineq_from_names(space, {fixed: -1, 1: length - 1}))
              .project_out(dt, k, 1))
    if not keep_original:
        return linked
    linked = linked.insert_dims(dt, k, 1).set_dim_name(dt, k, name)
    return s.intersect(linked)


def duplicate_dim(bset: isl.BasicSet, name: str, new: str) -> isl.BasicSet:
    """Add `new` right after dim `name`, with the same constraints as `name` but independent
    of it (a copy of the loop)."""
    where = _dim_position(bset, name)
    if where is None:
        return bset
    dt, k = where
    with_new = bset.insert_dims(dt, k + 1, 1).set_dim_name(dt, k + 1, new)
    copy = bset.set_dim_name(dt, k, new).insert_dims(dt, k, 1).set_dim_name(dt, k, name)
    return with_new.intersect(copy)


def rename_dim(bset: isl.BasicSet, name: str, new: str) -> isl.BasicSet:
    """Rename dim `name` (set dim or parameter) to `new`; unchanged if absent."""
    where = _dim_position(bset, name)
    return bset if where is None else bset.set_dim_name(where[0], where[1], new)


def project_out_names(bset: isl.BasicSet, names: Iterable[str]) -> isl.BasicSet:
    """Project out the named dims (set dims or parameters) that `bset` has; their constraints
    on the remaining dims persist (existentially)."""
    for name in names:
        where = _dim_position(bset, name)
        if where is not None:
            bset = bset.project_out(where[0], where[1], 1)
    return bset


def fix_dim(bset: isl.BasicSet, name: str, value: int) -> isl.BasicSet:
    """Set dim/parameter `name` to the integer `value` and project it out."""
    where = _dim_position(bset, name)
    if where is None:
        return bset
    c = isl.Constraint.eq_from_names(bset.get_space(), {name: 1, 1: -int(value)})
    return bset.add_constraint(c).project_out(where[0], where[1], 1)


def add_dim(bset: isl.BasicSet, name: str, *, param: bool = False,
            pos: int | None = None) -> isl.BasicSet:
    """Add an unconstrained set dim (or parameter) `name` at `pos` (default: last)."""
    dt = dim_type.param if param else dim_type.set
    k = bset.dim(dt) if pos is None else pos
    return bset.insert_dims(dt, k, 1).set_dim_name(dt, k, name)


def constrain_equal(bset: isl.BasicSet, name: str, expr: Expression) -> isl.BasicSet:
    """Intersect with ``name == expr``; `expr` is quasi-affine in the dims of `bset`."""
    s = isl.Set.from_basic_set(bset)
    space = s.get_space()
    lhs = aff_from_expr(space, p.Variable(name))
    rhs = aff_from_expr(space, expr)
    return _single_basic_set(s.intersect(lhs.eq_set(rhs)), f"'{name} = {expr}'")


def static_lower_bound(bset: isl.BasicSet, name: str) -> Expression | None:
    """The lower bound of set dim `name` over all other inames, as one affine expression in
    the parameters; None if it is not a single affine piece (or unbounded).  An empty
    domain has lower bound 0 (and `static_length` 1): any mapping of no points will do."""
    if bset.is_empty():
        return 0
    try:
        lo = project_onto(bset, [name]).dim_min(0)
    except isl.Error:   # unbounded below
        return None
    pieces = lo.coalesce().get_pieces()
    if len(pieces) != 1:
        return None
    return expr_from_aff(pieces[0][1])


def static_length(bset: isl.BasicSet, name: str, lower: Expression) -> int | None:
    """The largest ``name - lower + 1`` over `bset` if it is a constant; else None."""
    if bset.is_empty():
        return 1
    s = isl.Set.from_basic_set(bset)
    diff = aff_from_expr(s.get_space(), p.Sum((p.Variable(name), p.Product((-1, lower)))))
    pieces = diff.get_pieces()
    if len(pieces) != 1:
        return None
    try:
        val = s.max_val(pieces[0][1])
    except isl.Error:
        return None
    return int(val.to_python()) + 1 if val.is_int() else None


def box_extent(bset: isl.BasicSet, name: str) -> tuple[Expression, int | None] | None:
    """If set dim `name` ranges over ``0 <= name < E`` whatever the other inames are, return
    (E as an expression in the parameters, E as an int if constant); else None."""
    if bset.is_empty():
        return 0, 0
    s = isl.Set.from_basic_set(bset)
    try:
        lo, hi = iname_bounds(s, name)
    except isl.Error:   # unbounded
        return None
    lo_pieces = lo.coalesce().get_pieces()
    if len(lo_pieces) != 1 or expr_from_aff(lo_pieces[0][1]) != 0:
        return None
    size = hi.add_constant_val(isl.Val.one(s.get_ctx())).coalesce()
    extent = expr_from_pwaff(size, combine="min")   # an upper bound is the least of several
    k = s.find_dim_by_name(dim_type.set, name)
    space = s.get_space()
    var = aff_from_expr(space, p.Variable(name))
    box = (s.eliminate(dim_type.set, k, 1)
           .intersect(var.ge_set(aff_from_expr(space, 0)))
           .intersect(var.lt_set(aff_from_expr(space, extent))))
    if not box.is_equal(s):
        return None
    return extent, (extent if isinstance(extent, int) else None)


def parse_param_set(text: str, params: Iterable[str]) -> isl.BasicSet:
    """Parse a parameter-only condition (``n mod 4 = 0 and n >= 1``) over `params`."""
    keywords = {"and", "or", "not", "mod", "exists", "floor", "ceil", "min", "max", "true",
                "false", "infty"}
    bound = {b.strip() for group in re.findall(r"exists\s*\(?\s*([\w\s,]+?)\s*:", text)
             for b in group.split(",")}
    params = sorted(set(params))
    unknown = sorted(set(re.findall(r"[A-Za-z_]\w*", text)) - keywords - bound - set(params))
    if unknown:
        raise DomainError(f"unknown name(s) {', '.join(unknown)} in {text!r} (known "
                          f"parameters: {', '.join(params) or 'none'})")
    try:
        s = isl.Set(f"[{', '.join(params)}] -> {{ : {text} }}")
    except isl.Error as e:
        raise DomainError(f"malformed condition {text!r}: {_isl_reason(e)}") from None
    return _single_basic_set(s, f"condition {text!r}")


def intersect_params(old: isl.BasicSet | None, new: isl.BasicSet) -> isl.BasicSet:
    """The parameter set of `old` and `new` together (parameter spaces aligned by name)."""
    new = new.params()
    if old is None:
        return new
    old = old.params().align_params(new.get_space())
    return old.intersect(new.align_params(old.get_space()))


def same_domain(a: isl.BasicSet, b: isl.BasicSet) -> bool:
    """Whether two domains are the same set (same inames in the same order, parameters
    matched by name)."""
    if inames_of(a) != inames_of(b):
        return False
    sa, sb = isl.Set.from_basic_set(a), isl.Set.from_basic_set(b)
    sa = sa.align_params(sb.get_space())
    return sa.is_equal(sb.align_params(sa.get_space()))


def iname_domains_equal(domains: Sequence[isl.BasicSet], a: str, b: str) -> bool:
    """Whether inames `a` and `b` iterate over the same values (for the same values of
    parameters and of the inames of their ancestor domains)."""
    def alone(name: str) -> isl.Set:
        home = next(set(inames_of(d)) for d in domains if name in inames_of(d))
        s = isl.Set.from_basic_set(combined_domain(domains, [name]))
        for other in inames_of(s):
            if other in home and other != name:   # siblings: only their existence matters
                s = s.project_out(dim_type.set, s.find_dim_by_name(dim_type.set, other), 1)
            elif other != name:                   # ancestors: fixed by enclosing loops
                k = s.find_dim_by_name(dim_type.set, other)
                s = s.move_dims(dim_type.param, s.dim(dim_type.param), dim_type.set, k, 1)
        k = s.find_dim_by_name(dim_type.set, name)
        return s.set_dim_name(dim_type.set, k, "_tr_x")
    sa, sb = alone(a), alone(b)
    sa = sa.align_params(sb.get_space())
    return sa.is_equal(sb.align_params(sa.get_space()))


def as_param_set(obj: object) -> isl.BasicSet | None:
    """An islpy set given by a user (assumptions) as a parameter-only BasicSet; None if `obj`
    is not an islpy set."""
    if isinstance(obj, isl.BasicSet):
        return obj.params()
    if isinstance(obj, isl.Set):
        return _single_basic_set(obj.params(), "the assumptions")
    return None


def as_relation(obj: object) -> isl.Map | None:
    """An islpy Map or BasicMap, or its text (``{[i] -> [j]: j = i + 1}``, parameters found
    automatically), as a Map; None if `obj` is neither.  Malformed text is a DomainError."""
    if isinstance(obj, isl.BasicMap):
        obj = isl.Map.from_basic_map(obj)
    if isinstance(obj, isl.Map):
        # tuple names ("A[i] -> B[j]") would keep the map from applying to a domain
        return obj.reset_tuple_id(dim_type.in_).reset_tuple_id(dim_type.out)
    if not isinstance(obj, str):
        return None
    return as_relation(_parse_relation(obj))


def _parse_relation(obj: str) -> isl.Map:
    text = obj.strip()
    if "->" not in text.split("{", 1)[0]:
        m = re.match(r"\s*\{\s*\w*\s*\[([^\]]*)\]\s*->\s*\w*\s*\[([^\]]*)\]", text)
        if m is None:
            raise DomainError(f"malformed map {text!r}: expected '{{[old inames] -> "
                              "[new inames]: conditions}'")
        dims = {n.strip() for g in m.groups() for n in g.split(",") if n.strip()}
        found = sorted(n for n in kl_free_names(text[m.end():]) if n not in dims)
        text = f"[{', '.join(found)}] -> {text}" if found else text
    try:
        return isl.Map(text)
    except isl.Error as e:
        raise DomainError(f"malformed map {obj.strip()!r}: {_isl_reason(e)}") from None


def relation_dims(rel: isl.Map) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(input dim names, output dim names, parameter names) of a relation; a dimension
    without a name, or a name used twice, is a DomainError."""
    ins = tuple(rel.get_var_names(dim_type.in_))
    outs = tuple(rel.get_var_names(dim_type.out))
    names = [*ins, *outs]
    if not all(names) or len(set(names)) != len(names):
        raise DomainError(f"every input and output dimension of the map {str(rel)!r} needs "
                          "its own name (write '{[i] -> [j]: j = i + 1}', not "
                          "'{[i] -> [i + 1]}')")
    return ins, outs, tuple(rel.get_var_names(dim_type.param))


def relation_from_equations(old: Sequence[str], new: Sequence[str],
                            equations: Sequence[tuple[Expression, Expression]]) -> isl.Map:
    """The relation ``{[old] -> [new]: lhs = rhs, ...}``; other free names are parameters.
    Raises DomainError for a non-affine equation."""
    names: set[str] = set()
    for lhs, rhs in equations:
        names |= dependencies(lhs) | dependencies(rhs)
    params = sorted(names - set(old) - set(new))
    try:
        space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[*old, *new],
                                            params=params)
        s = isl.Set.universe(space)
        for lhs, rhs in equations:
            s = s.intersect(aff_from_expr(space, lhs).eq_set(aff_from_expr(space, rhs)))
        return isl.Map.from_range(s).move_dims(dim_type.in_, 0, dim_type.out, 0, len(old))
    except isl.Error as e:
        raise DomainError(f"cannot build the relation: {_isl_reason(e)}") from None


def map_domain_inames(bset: isl.BasicSet, rel: isl.Map
                      ) -> tuple[isl.BasicSet, dict[str, Expression]]:
    """Apply `rel` (old inames -> new inames, a bijection on `bset`) to the domain `bset`.

    Returns the new domain (the new inames where the first old one was, the other inames
    unchanged) and each old iname as an affine expression of the new inames (and of the
    other inames and parameters).  Raises DomainError when `rel` is not defined on every point,
    is not one-to-one there, or its inverse is not a single affine expression.
    """
    try:
        return _map_domain_inames(bset, rel)
    except isl.Error as e:
        raise DomainError(f"cannot apply the map: {_isl_reason(e)}") from None


def _map_domain_inames(bset: isl.BasicSet, rel: isl.Map
                       ) -> tuple[isl.BasicSet, dict[str, Expression]]:
    ins, outs, _ = relation_dims(rel)
    dims = inames_of(bset)
    old_points = params_to_set_dims(_all_to_params(isl.Set.from_basic_set(bset)), ins)
    rel, old_points = rel.align_params(old_points.get_space()), old_points.align_params(
        rel.get_space())
    restricted = rel.intersect_domain(old_points)
    if not restricted.domain().is_equal(old_points):
        raise DomainError("the map is not defined on every point of the domain")
    if not (restricted.is_single_valued() and restricted.is_injective()):
        raise DomainError("the map is not one-to-one on the domain (each old point must map "
                          "to exactly one new point, and no two to the same)")
    new_points = restricted.range()
    first = min(dims.index(n) for n in ins)
    order = [n for n in dims[:first] if n not in ins] + list(outs) + [
        n for n in dims[first:] if n not in ins]
    domain = _single_basic_set(params_to_set_dims(_all_to_params(new_points), order),
                               "the map")
    inverse = restricted.reverse().as_pw_multi_aff()
    return domain, {name: _inverse_piece(inverse.get_pw_aff(k), new_points, name)
                    for k, name in enumerate(ins)}


def _inverse_piece(pw: isl.PwAff, points: isl.Set, name: str) -> Expression:
    pw = pw.gist(points).coalesce()
    exprs: list[Expression] = []
    for _, aff in pw.get_pieces():
        e = expr_from_aff(aff)
        if e not in exprs:
            exprs.append(e)
    if len(exprs) != 1:
        raise DomainError(f"iname {name!r} is not one affine expression of the new inames "
                          f"(its inverse has {len(exprs)} pieces)")
    return _positive_terms_first(exprs[0])


def _positive_terms_first(e: Expression) -> Expression:
    """``-1*j + p`` -> ``p + -1*j`` (printed ``p - j``); the value is unchanged."""
    if not isinstance(e, p.Sum):
        return e

    def negative(t: Expression) -> bool:
        return (isinstance(t, int) and t < 0) or (
            isinstance(t, p.Product) and isinstance(t.children[0], int) and t.children[0] < 0)

    terms = sorted(e.children, key=negative)
    return p.Sum(tuple(terms)) if terms != list(e.children) else e
