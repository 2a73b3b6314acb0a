"""isl glue for the data transforms (precompute, add_prefetch, buffer_array):
footprints, storage boxes and fetch predicates.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import islpy as isl
import pymbolic.primitives as p

from translator.diagnostics import DomainError
from translator.ir.expr import Expression, dependencies
from translator.ir.isl_glue.codegen import (
    _aligned, _box, _condition_set, _footprint_of, context_set, gist_conditions,
    hardware_span, restrict_context, statement_domain,
)
from translator.ir.isl_glue.core import (
    _align_params, _intersect_promoting, _param_set_aligned, aff_from_expr, dim_type,
    expr_from_aff, inames_of, project_onto,
)
from translator.ir.isl_glue.dims import _single_basic_set


def use_domain(domains: Sequence[isl.BasicSet], inames: Iterable[str],
               conditions: Iterable[Expression] = ()) -> isl.Set:
    """The instances of a use inside `inames`, restricted by its affine `conditions` (the
    others are dropped: the footprint then over-approximates, which a fetch may do)."""
    dom = isl.Set.from_basic_set(statement_domain(domains, inames))
    for cond in conditions:
        dom = _align_params(dom, dependencies(cond))
        piece = _condition_set(dom.get_space(), cond)
        if piece is not None:
            dom = dom.intersect(piece)
    return dom


def slice_domain(shape: Sequence[Expression], names: Sequence[str]) -> isl.Set:
    """``0 <= names[k] < shape[k]`` for every k: the points of a whole-axis slice ``a[:]``."""
    return _box(shape, list(names), isl.Space.set_alloc(isl.DEFAULT_CONTEXT, 0, 0))


def product_domain(a: isl.Set, b: isl.Set) -> isl.Set:
    """Two sets over disjoint dims (and shared parameters) as one set over both."""
    return _intersect_promoting(a, b)


def data_footprint(uses: Sequence[tuple[isl.Set, Sequence[Expression]]], outer: Iterable[str],
                   names: Sequence[str], assumptions: isl.BasicSet | None = None) -> isl.Set:
    """The elements ``(names[0], ...)`` that the uses touch, as a set whose parameters are the
    kernel's parameters and the `outer` inames.

    Each use is (its instances, its argument expressions); the dims of the instance set that
    are not `outer` are swept (projected out).  Raises DomainError for a non-affine argument.
    """
    outer = set(outer)
    result: isl.Set | None = None
    for dom, args in uses:
        s = dom
        for n in inames_of(s):
            if n in outer:
                k = s.find_dim_by_name(dim_type.set, n)
                s = s.move_dims(dim_type.param, s.dim(dim_type.param), dim_type.set, k, 1)
        piece = _footprint_of(s, args, names)
        if result is None:
            result = piece
        else:
            result, piece = _aligned(result, piece)
            result = result.union(piece)
    if result is None:
        raise DomainError("no uses: the footprint is empty")
    if assumptions is not None:
        result = result.intersect_params(_param_set_aligned(assumptions, result))
    return result.coalesce()


def footprint_within(small: isl.Set, big: isl.Set) -> bool:
    """Whether footprint `small` lies inside `big` for every parameter value."""
    a, b = _aligned(small, big)
    return a.is_subset(b)


def convex_footprint(footprint: isl.Set) -> isl.BasicSet | None:
    """The footprint as one convex set, or None when it is not convex (its convex hull holds
    points that no use touches)."""
    pieces = footprint.coalesce().get_basic_sets()
    if len(pieces) <= 1:
        return pieces[0] if pieces else isl.BasicSet.empty(footprint.get_space())
    hull = footprint.convex_hull()
    return hull if isl.Set.from_basic_set(hull).is_equal(footprint) else None


def footprint_bounding_box(footprint: isl.Set) -> isl.BasicSet:
    """The smallest box (per dim: lowest to highest value, as functions of the parameters)
    around the footprint; its convex hull where a bound has several pieces that do not
    combine into one convex set."""
    lines = [_bounds_of_dim(footprint, k) for k in range(footprint.dim(dim_type.set))]
    box = isl.Set.universe(footprint.get_space())
    for line in lines:
        box = box.intersect(line)
    box = box.coalesce()
    pieces = box.get_basic_sets()
    if len(pieces) == 1:
        return pieces[0]
    if len(pieces) <= _HULL_PIECES:
        hull = _bounded_hull(box)
        if hull is not None:
            return hull
    # too many pieces for one hull (a 3-D footprint of five reads made 100, and isl's convex
    # hull ran for minutes; a few pieces can take as long): the box of each dimension's own
    # hull, as large or larger, and still convex
    box = isl.Set.universe(footprint.get_space())
    for line in lines:
        hull = _bounded_hull(line.coalesce())
        if hull is None:
            raise DomainError("its bounding box is too complex for isl (more than a million "
                              "operations); prefetch fewer reads, or a simpler nest")
        box = box.intersect(isl.Set.from_basic_set(hull))
    return box.coalesce().get_basic_sets()[0]


#: Most pieces of a bounding box given to one convex hull (see `footprint_bounding_box`),
#: and the most isl operations that hull may take (about a second).
_HULL_PIECES = 16
_HULL_OPERATIONS = 1_000_000


def _bounded_hull(box: isl.Set) -> isl.BasicSet | None:
    """The convex hull of `box`, or None where isl needs more than `_HULL_OPERATIONS`."""
    ctx = box.get_ctx()
    ctx.set_max_operations(_HULL_OPERATIONS)
    ctx.reset_operations()
    try:
        return box.convex_hull()
    except isl.Error:
        return None
    finally:
        ctx.set_max_operations(0)


def _bounds_of_dim(footprint: isl.Set, k: int) -> isl.Set:
    """The values of dimension `k` of `footprint`, the other dimensions eliminated."""
    line = footprint
    for j in reversed(range(footprint.dim(dim_type.set))):
        if j != k:
            line = line.eliminate(dim_type.set, j, 1)
    return line


def clip_to_shape(footprint: isl.BasicSet, shape: Sequence[Expression]) -> isl.BasicSet:
    """The footprint without the elements outside ``0 <= x_k < shape[k]``: an access there
    would be out of bounds in the original program, so a fetch must not touch them."""
    s = isl.Set.from_basic_set(footprint)
    names = list(inames_of(s))
    box = _box(shape, names, s.get_space())
    s, box = _aligned(s, box)
    return _single_basic_set(s.intersect(box), "clipping the footprint to the array")


def storage_axis(footprint: isl.BasicSet, k: int) -> tuple[Expression, int] | None:
    """(base, extent) of storage axis `k`: `base` an affine expression in the parameters with
    ``0 <= x_k - base < extent`` on the whole footprint, `extent` the smallest such constant
    over the candidate bases (the pieces of the lowest value); None if none is constant."""
    s = isl.Set.from_basic_set(footprint)
    if s.is_empty():
        return 0, 1
    try:
        low = s.dim_min(k)
    except isl.Error:
        return None
    best: tuple[Expression, int] | None = None
    for _, aff in low.coalesce().get_pieces():
        base = expr_from_aff(aff)
        extent = _shifted_extent(s, k, base)
        if extent is not None and (best is None or extent < best[1]):
            best = (base, extent)
    return best


def _shifted_extent(s: isl.Set, k: int, base: Expression) -> int | None:
    space = s.get_space()
    name = s.get_dim_name(dim_type.set, k)
    try:
        diff = aff_from_expr(space, p.Sum((p.Variable(name), p.Product((-1, base)))))
        (_, aff), = diff.get_pieces()
        lo, hi = s.min_val(aff), s.max_val(aff)
    except (isl.Error, DomainError, ValueError):
        return None
    if not (lo.is_int() and hi.is_int()) or lo.to_python() < 0:
        return None
    return int(hi.to_python()) + 1


def fetch_domain(footprint: isl.BasicSet, axes: Sequence[tuple[int, str, Expression]]
                 ) -> isl.BasicSet:
    """The footprint in storage coordinates: for each (dim k, iname, base) of `axes`,
    ``iname = x_k - base``; the footprint dims not in `axes` (extent one) are dropped.
    Parameters stay parameters (kernel parameters and outer inames)."""
    s = isl.Set.from_basic_set(footprint)
    names = list(inames_of(s))
    for _, iname, _ in axes:
        n = s.dim(dim_type.set)
        s = s.add_dims(dim_type.set, 1).set_dim_name(dim_type.set, n, iname)
    for k, iname, base in axes:
        s = _align_params(s, dependencies(base))
        shift = p.Sum((p.Variable(iname), p.Product((-1, p.Variable(names[k]))), base))
        s = s.intersect(aff_from_expr(s.get_space(), shift).zero_set())
    s = project_onto(s, [iname for _, iname, _ in axes])
    return _single_basic_set(s, "the fetch domain")


def fetch_predicates(domain: isl.BasicSet, extents: dict[str, int], outer: isl.BasicSet | None,
                     assumptions: isl.BasicSet | None = None) -> list[Expression] | None:
    """Conditions that cut the box ``0 <= iname < extent`` down to `domain` where the `outer`
    inames' domain (if any) and the assumptions hold; None when no point remains."""
    box = [p.Comparison(p.Variable(n), ">=", 0) for n in sorted(extents)]
    box += [p.Comparison(p.Variable(n), "<", e) for n, e in sorted(extents.items())]
    ctx = context_set(box, assumptions)
    if outer is not None:
        ctx = restrict_context(ctx, outer)
    return gist_conditions(domain, ctx)


def simplify_index(expr: Expression) -> Expression:
    """An affine index in canonical form (``i + 16*io - 16*io`` -> ``i``); other expressions
    unchanged."""
    names = list(dict.fromkeys(sorted(dependencies(expr))))
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[], params=names)
    try:
        pieces = aff_from_expr(space, expr).get_pieces()
    except (DomainError, isl.Error):
        return expr
    if len(pieces) != 1:
        return expr
    return expr_from_aff(pieces[0][1])


def constant_iname_extent(domains: Sequence[isl.BasicSet], iname: str) -> int | None:
    """A constant bound on the number of values of `iname` (for any values of the other
    inames and parameters), or None."""
    try:
        return hardware_span(statement_domain(domains, [iname]), iname)[1]
    except (isl.Error, DomainError):
        return None


def count_points(domain: isl.BasicSet | isl.Set, params: Mapping[str, int]) -> int:
    """The number of points of `domain` for the parameter values `params` (each parameter of
    the domain must be given)."""
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    for name in s.get_var_names(isl.dim_type.param):
        if name not in params:
            raise DomainError(f"a value for parameter {name!r} is needed to count")
        pos = s.find_dim_by_name(isl.dim_type.param, name)
        s = s.fix_val(isl.dim_type.param, pos, isl.Val.int_from_si(s.get_ctx(), int(params[name])))
    return s.count_val().to_python()
