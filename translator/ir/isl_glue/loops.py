"""isl glue for the frontends: loop domains from Fortran DO bounds and C for-loop
conditions, footprints of assumed-size arrays and pointers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
import itertools
from typing import TypeVar

import islpy as isl
import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import DomainError
from translator.ir.expr import (Expression, IRIdentityMapper, IRWalkMapper, dependencies,
                                typed_key)
from translator.ir.isl_glue.codegen import _condition_set
from translator.ir.isl_glue.core import (_align_params, aff_from_expr, combined_domain,
                                         expr_from_aff, expr_from_pwaff, inames_of, project_onto,
                                         union_all)


_T = TypeVar("_T")
#: Answers of `make_loop_domain`, `c_loop_domain` and `c_union_end` by their arguments
#: (`typed_key`; a domain by its text, which names a set exactly): the regions of one file
#: ask the same questions (400 one-loop regions: one loop domain, one footprint).  isl
#: objects are values (no operation changes one), so an answer can be handed out again.
_ANSWERS: dict[tuple, object] = {}
_ANSWERS_SIZE = 4096


def _remembered(key: Callable[[], tuple], compute: Callable[[], _T]) -> _T:
    """`compute()`, or what it gave for the same `key()` before; errors are not remembered,
    nor answers whose arguments have no key (an unhashable leaf)."""
    try:
        k = key()
    except TypeError:
        return compute()
    found = _ANSWERS.get(k)
    if found is None:
        if len(_ANSWERS) >= _ANSWERS_SIZE:
            _ANSWERS.clear()
        found = _ANSWERS[k] = compute()
    return found  # type: ignore[return-value]


def make_loop_domain(iname: str, lower: Expression, upper: Expression, step: int = 1,
                     ) -> isl.BasicSet:
    """The domain of one counted loop, parameters = the free names of the bounds.

    step 1: ``lower <= iname <= upper``.  Other constant steps: `iname` is a 0-based trip
    counter, ``0 <= iname`` and ``lower + step*iname <= upper`` (``>=`` for negative steps).
    Integer quotients by positive constants (`Quotient`: truncating, as in Fortran and C) are
    accepted where they give the same domain as floor division for every sign of their
    numerators; otherwise DomainError("truncating division ...").  Raises DomainError for a
    non-affine bound or a non-convex domain (``i <= max(a, b)``).
    """
    if iname in dependencies(lower) or iname in dependencies(upper):
        return _make_loop_domain(iname, lower, upper, step)
    # remembered whatever the loop's name (later loops over ``i`` are ``i_1``, ``i_2`` ...)
    found = _remembered(lambda: ("loop", typed_key(lower), typed_key(upper), step),
                        lambda: _make_loop_domain(iname, lower, upper, step))
    if found.get_dim_name(isl.dim_type.set, 0) == iname:
        return found
    return found.set_dim_name(isl.dim_type.set, 0, iname)


def _make_loop_domain(iname: str, lower: Expression, upper: Expression, step: int
                      ) -> isl.BasicSet:
    if step == 0:
        raise DomainError("DO loop with a zero step")
    quotients = _truncating_quotients(lower) + [
        q for q in _truncating_quotients(upper) if q not in _truncating_quotients(lower)]
    floors = {q: p.FloorDiv(q.numerator, int(q.denominator)) for q in quotients}
    s = _loop_set(iname, _replace_quotients(lower, floors), _replace_quotients(upper, floors),
                  step)
    if quotients and not s.is_equal(_truncating_loop_set(iname, lower, upper, step, quotients)):
        raise DomainError(f"truncating division in the bounds of loop {iname!r}: the numerator "
                          "may be negative, where it rounds differently from isl's floor")
    bsets = s.coalesce().get_basic_sets()
    if len(bsets) != 1:
        if not bsets:
            return isl.BasicSet.empty(s.get_space())
        raise DomainError(f"the bounds of loop {iname!r} do not form a convex domain "
                          "(an upper bound max(...) or a lower bound min(...))")
    return bsets[0].remove_redundancies()


def _loop_set(iname: str, lower: Expression, upper: Expression, step: int) -> isl.Set:
    params = sorted((dependencies(lower) | dependencies(upper)) - {iname})
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[iname], params=params)
    lo = aff_from_expr(space, lower)
    hi = aff_from_expr(space, upper)
    it = aff_from_expr(space, p.Variable(iname))
    if step == 1:
        return lo.le_set(it).intersect(it.le_set(hi))
    zero = aff_from_expr(space, 0)
    pos = lo.add(aff_from_expr(space, p.Product((step, p.Variable(iname)))))
    return zero.le_set(it).intersect(pos.le_set(hi) if step > 0 else pos.ge_set(hi))


def _truncating_quotients(e: Expression) -> list[p.Quotient]:
    """Integer quotients by positive constants in `e` (outermost first, no duplicates)."""
    walk = _QuotientWalk()
    walk(e)
    return walk.found


class _QuotientWalk(IRWalkMapper):
    """Collects the quotients `_truncating_quotients` looks for (a class made once: one made
    per call cost more than the walk)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[p.Quotient] = []

    def visit(self, expr, *args, **kwargs):
        den = getattr(expr, "denominator", None)
        if (isinstance(expr, p.Quotient) and not isinstance(den, bool)
                and isinstance(den, (int, np.integer)) and int(den) > 0
                and expr not in self.found):
            self.found.append(expr)
        return True


def _replace_quotients(e: Expression, mapping: dict) -> Expression:
    class _Mapper(IRIdentityMapper):
        def map_quotient(self, expr, *args, **kwargs):
            if expr in mapping:
                return mapping[expr]
            return super().map_quotient(expr, *args, **kwargs)

    return _Mapper()(e)


def _truncating_loop_set(iname: str, lower: Expression, upper: Expression, step: int,
                         quotients: list[p.Quotient]) -> isl.Set:
    """The exact domain: one piece per sign of each quotient's numerator (trunc = floor for a
    non-negative numerator, -floor(-n/d) for a negative one)."""
    exact = None
    for signs in itertools.product((True, False), repeat=len(quotients)):
        mapping = {}
        for q, nonneg in zip(quotients, signs):
            d = int(q.denominator)
            mapping[q] = (p.FloorDiv(q.numerator, d) if nonneg else
                          p.Product((-1, p.FloorDiv(p.Product((-1, q.numerator)), d))))
        piece = _loop_set(iname, _replace_quotients(lower, mapping),
                          _replace_quotients(upper, mapping), step)
        space = piece.get_space()
        for q, nonneg in zip(quotients, signs):
            num = aff_from_expr(space, _replace_quotients(q.numerator, mapping))
            zero = aff_from_expr(space, 0)
            piece = piece.intersect(num.ge_set(zero) if nonneg else num.lt_set(zero))
        exact = piece if exact is None else exact.union(piece)
    return exact


def max_over_domain(domain: isl.BasicSet | isl.Set, expr: Expression) -> Expression:
    """The maximum of the affine `expr` over `domain`, as an expression in its parameters.

    Free names of `expr` that are not dims of `domain` become parameters.  Raises DomainError
    when `expr` is not affine or unbounded.
    """
    return max_over_union([(domain, expr)])


def max_over_union(accesses: Sequence[tuple[isl.BasicSet | isl.Set, Expression]]
                   ) -> Expression:
    """The maximum of every affine `expr` over its `domain` (one bound for all of them, from
    the union of their images: its size does not grow with the number of accesses).

    Raises DomainError when an expression is not affine, or the maximum is unbounded or has
    no value (every domain empty)."""
    image = _union_image([(domain, expr, ()) for domain, expr in accesses])
    what = accesses[0][1] if len(accesses) == 1 else "the subscripts"
    try:
        hi = image.dim_max(0)
    except isl.Error:
        raise DomainError(f"cannot bound {what} over the loop domain") from None
    try:
        return expr_from_pwaff(hi, combine="exact")
    except DomainError:
        raise DomainError(f"cannot bound {what} over the loop domain (empty domain)") from None


def _union_image(accesses: Sequence[tuple[isl.BasicSet | isl.Set, Expression,
                                          Sequence[Expression]]]) -> isl.Set:
    """The values each affine index takes over its domain where its affine conditions hold,
    all in one one-dimensional set over the parameters of all of them."""
    return union_all([_image(domain, index, conditions)
                      for domain, index, conditions in accesses])


def _image(domain: isl.BasicSet | isl.Set, index: Expression,
           conditions: Sequence[Expression]) -> isl.Set:
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    names = set(dependencies(index))
    for c in conditions:
        names |= dependencies(c)
    s = _align_params(s, names)
    for c in conditions:
        piece = _condition_set(s.get_space(), c)
        if piece is not None:
            s = s.intersect(piece)
    aff = aff_from_expr(s.get_space(), index)
    return isl.Map.from_pw_aff(aff).intersect_domain(s).range()


_C_RELATIONS = ("<", "<=", ">", ">=", "==")


def c_loop_domain(iname: str,
                  constraints: Sequence[tuple[Expression, str, Expression]]) -> isl.BasicSet:
    """The domain of one loop: `iname` constrained by ``(lhs, op, rhs)`` triples, op one of
    ``< <= > >= ==``.  Every other free name becomes a parameter (outer inames included).

    Raises DomainError for a non-affine constraint or a non-convex domain.
    """
    return _remembered(
        lambda: ("c_loop", iname, tuple((typed_key(lhs), op, typed_key(rhs))
                                        for lhs, op, rhs in constraints)),
        lambda: _c_loop_domain(iname, constraints))


def _c_loop_domain(iname: str,
                   constraints: Sequence[tuple[Expression, str, Expression]]) -> isl.BasicSet:
    names = set()
    for lhs, _, rhs in constraints:
        names |= dependencies(lhs) | dependencies(rhs)
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[iname],
                                        params=sorted(names - {iname}))
    s = isl.Set.universe(space)
    for lhs, op, rhs in constraints:
        if op not in _C_RELATIONS:
            raise DomainError(f"unknown relation {op!r} in a loop bound")
        a, b = aff_from_expr(space, lhs), aff_from_expr(space, rhs)
        make = {"<": a.lt_set, "<=": a.le_set, ">": a.gt_set, ">=": a.ge_set,
                "==": a.eq_set}[op]
        s = s.intersect(make(b))
    bsets = s.coalesce().get_basic_sets()
    if not bsets:
        return isl.BasicSet.empty(space)
    if len(bsets) > 1:
        raise DomainError(f"the bounds of loop {iname!r} do not form a convex domain (an "
                          "upper bound max(...) or a lower bound min(...))")
    return bsets[0].remove_redundancies()


def c_index_end(domain: isl.BasicSet | isl.Set, index: Expression,
                conditions: Sequence[Expression] = ()) -> Expression:
    """One past the largest value of the affine `index` over the points of `domain` where the
    affine `conditions` hold (others are ignored), as an expression in the parameters.

    For a convex domain the maximum is a concave function of the parameters, so pieces are
    combined with min (exact, and never larger than the true footprint).  Raises DomainError
    for a non-affine index or an unbounded maximum.
    """
    return c_union_end([(domain, index, conditions)])


def c_union_end(accesses: Sequence[tuple[isl.BasicSet | isl.Set, Expression,
                                         Sequence[Expression]]]) -> Expression:
    """`c_index_end` of several accesses ``(domain, index, conditions)`` at once: one past the
    largest value any of them takes, bounded on the union of their images (0 when none
    is reached), so the result does not grow with the number of accesses."""
    return _remembered(
        lambda: ("c_end", tuple((str(domain), typed_key(index),
                                 tuple(typed_key(c) for c in conditions))
                                for domain, index, conditions in accesses)),
        lambda: _c_union_end(accesses))


def _c_union_end(accesses: Sequence[tuple[isl.BasicSet | isl.Set, Expression,
                                          Sequence[Expression]]]) -> Expression:
    image = _union_image(accesses)
    if image.is_empty():
        return 0
    try:
        hi = image.dim_max(0)
    except isl.Error:
        what = accesses[0][1] if len(accesses) == 1 else "the subscripts"
        raise DomainError(f"the largest value of {what} is unbounded") from None
    return expr_from_pwaff(hi.add_constant_val(isl.Val.one(hi.get_ctx())), combine="exact")


def nominal_points(domains: Sequence[isl.BasicSet], inames: Sequence[str], size: int) -> int:
    """An estimate of how many points the combined domain of `inames` has when every
    parameter is `size`: the product, loop by loop from the outermost, of the widest range
    of each iname for any values of the loops outside it (exact for rectangular nests, at
    most twice too many for triangular ones).  An iname whose range isl cannot bound counts
    `size`; an empty domain counts 0."""
    if not inames:
        return 1
    try:
        s = isl.Set.from_basic_set(combined_domain(domains, inames))
        for k in range(s.dim(isl.dim_type.param)):
            s = s.fix_val(isl.dim_type.param, k, isl.Val.int_from_si(s.get_ctx(), size))
        if s.is_empty():
            return 0
        total = 1
        for k, name in enumerate(inames_of(s)):
            total *= _widest_range(s, k, size) if name in inames else 1
        return total
    except (DomainError, isl.Error):
        return size ** len(inames)


def _widest_range(s: isl.Set, k: int, size: int) -> int:
    """The most values set dim `k` of `s` takes for fixed values of the dims before it
    (parameters fixed), or `size` if isl cannot bound it."""
    inner = s.project_out(isl.dim_type.set, k + 1, s.dim(isl.dim_type.set) - k - 1)
    inner = inner.move_dims(isl.dim_type.param, inner.dim(isl.dim_type.param),
                            isl.dim_type.set, 0, k)
    try:
        width = inner.dim_max(0).sub(inner.dim_min(0)).max_val()
    except isl.Error:
        return size
    if not width.is_int():
        return size
    return max(int(width.to_python()) + 1, 0)


def last_point(domains: Sequence[isl.BasicSet], inames: Sequence[str]
               ) -> tuple[Expression, ...] | None:
    """The lexicographically last point of the domain of `inames` (outermost first), as one
    expression of the parameters per iname: the sequentially last iteration of those loops
    (a triangular nest's last row holds a point).  None when a coordinate is not one affine
    expression for every parameter value (it differs by cases, ``min(n, m)``), or has none."""
    s = isl.Set.from_basic_set(combined_domain(domains, inames))
    names = inames_of(s)
    for n in sorted(set(names) - set(inames)):
        s = s.project_out(isl.dim_type.set, s.find_dim_by_name(isl.dim_type.set, n), 1)
    out: list[Expression] = []
    for iname in inames:
        pieces = s.dim_max(s.find_dim_by_name(isl.dim_type.set, iname)).coalesce().get_pieces()
        if len(pieces) != 1:
            return None
        value = expr_from_aff(pieces[0][1])
        s = s.intersect(_point_set(s, iname, value))
        out.append(value)
    return tuple(out)


def runs_at_every_point(domains: Sequence[isl.BasicSet], outer: Iterable[str],
                        inames: Iterable[str]) -> bool:
    """Whether the loops over `inames` (`outer` among them) run at least one iteration at
    every point of the loops over `outer`, for every parameter value: an inner loop that
    never runs no iteration (exact sets: no convex hull)."""
    outer = frozenset(outer)
    whole = project_onto(combined_domain(domains, outer), outer)
    hit = project_onto(combined_domain(domains, frozenset(inames) | outer), outer)
    return bool(whole.is_subset(hit.align_params(whole.get_space())))


def never_runs(domains: Sequence[isl.BasicSet], inames: Iterable[str]) -> bool:
    """Whether the loops over `inames` run no iteration for any parameter value: their
    combined domain is empty (``do j = 1, i`` inside ``do i = -3, -1``)."""
    return bool(combined_domain(domains, frozenset(inames)).is_empty())


def _point_set(s: isl.Set, iname: str, value: Expression) -> isl.Set:
    """The points of `s`'s space where `iname` equals the parameter expression `value`."""
    space = s.get_space()
    it = aff_from_expr(space, p.Variable(iname))
    return it.eq_set(aff_from_expr(space, value))


def with_value_ranges(domain: isl.BasicSet | isl.Set,
                      ranges: dict[str, tuple[str, str]],
                      defined: dict[str, Expression] | None = None) -> isl.Set:
    """`domain` with a set dimension per name of `ranges` (a parameter of that name becomes
    one), bounded by ``lo <= name <= hi``, lo and hi parameters: the values an index table
    holds, read where a subscript or a loop bound uses them (a gather's footprint).  Each
    name of `defined` is a set dimension too, equal to its affine expression of those
    values and the parameters (a loop bound ``rowptr(i + 1) - 1`` held in a temporary)."""
    defined = defined or {}
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    for name in sorted(set(ranges) | set(defined)):
        n = s.dim(isl.dim_type.set)
        k = s.find_dim_by_name(isl.dim_type.param, name)
        if k >= 0:
            s = s.move_dims(isl.dim_type.set, n, isl.dim_type.param, k, 1)
        else:
            s = s.insert_dims(isl.dim_type.set, n, 1)
        s = s.set_dim_name(isl.dim_type.set, n, name)
    used = {b for pair in ranges.values() for b in pair}
    used |= {n for e in defined.values() for n in dependencies(e)}
    s = _align_params(s, used)
    space = s.get_space()
    for name, (lo, hi) in sorted(ranges.items()):
        v = aff_from_expr(space, p.Variable(name))
        s = s.intersect(v.ge_set(aff_from_expr(space, p.Variable(lo))))
        s = s.intersect(v.le_set(aff_from_expr(space, p.Variable(hi))))
    for name, value in sorted(defined.items()):
        v = aff_from_expr(space, p.Variable(name))
        s = s.intersect(v.eq_set(aff_from_expr(space, value)))
    return s


def c_nonnegative_condition(domain: isl.BasicSet | isl.Set, index: Expression,
                            conditions: Sequence[Expression] = ()
                            ) -> tuple[Expression, ...] | None:
    """The conditions on the parameters (``Comparison`` nodes, all to hold) under which the
    affine `index` is >= 0 at every point of `domain` where the affine `conditions` hold:
    () where it always is, None where that set is not convex or isl cannot take `index`."""
    try:
        image = _union_image([(domain, index, conditions)])
    except (DomainError, isl.Error):
        return None
    ctx = image.get_ctx()
    below = image.upper_bound_val(isl.dim_type.set, 0, isl.Val.int_from_si(ctx, -1))
    if below.is_empty():
        return ()
    ok = below.params().complement().gist(image.params()).coalesce()
    bsets = ok.get_basic_sets()
    if len(bsets) != 1 or bsets[0].dim(isl.dim_type.div):
        return None
    bset = bsets[0]
    out = []
    for c in bset.get_constraints():
        terms: list[Expression] = []
        for k in range(bset.dim(isl.dim_type.param)):
            coeff = c.get_coefficient_val(isl.dim_type.param, k).to_python()
            if coeff:
                v = p.Variable(bset.get_dim_name(isl.dim_type.param, k))
                terms.append(v if coeff == 1 else p.Product((coeff, v)))
        const = c.get_constant_val().to_python()
        if const or not terms:
            terms.append(const)
        left = terms[0] if len(terms) == 1 else p.Sum(tuple(terms))
        out.append(p.Comparison(left, "==" if c.is_equality() else ">=", 0))
    return tuple(out)
