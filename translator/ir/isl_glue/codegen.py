"""isl glue for code generation: statement domains, loop bounds, guards, proofs in a context.

A *context* is a parameter-only isl set: every iname that an enclosing loop or the hardware
grid fixes is a parameter there, so contexts from different statements combine by name.
Also: barriers need loops whose trip counts are the same in every work item of a group
(parallel reductions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import islpy as isl
import pymbolic.primitives as p
from pymbolic import evaluate
from pymbolic.mapper.evaluator import UnknownVariableError

from translator.diagnostics import DomainError
from translator.ir.expr import Expression, dependencies, substitute, typed_key
from translator.ir.isl_glue.core import (
    _MEMO, ALPHA, _align_params, _all_to_params, _constraint_condition, _involves_divs,
    _Linear, _linear, _linear_form, _minus, _neg, _plain_constraints,
    _param_terms, aff_from_expr, alpha_key, alpha_memoized, alpha_names, combined_domain, dim_type,
    expr_from_pwaff, iname_bounds, inames_of, is_nonnegative, memoized, params_of,
    project_onto, renamed_text,
)


def statement_domain(domains: Sequence[isl.BasicSet], inames: Iterable[str]) -> isl.BasicSet:
    """The iteration domain of a statement within `inames`: the forest part for them,
    projected onto exactly those inames."""
    inames = frozenset(inames)
    if not isinstance(domains, tuple):
        return _statement_domain(domains, inames)
    # by identity only: a set remembered by its text may be another kernel's, equal and
    # printed alike but built differently, and analysis draws its counterexamples (isl
    # sample points) from statement domains: they would change
    return memoized(("statement_domain", id(domains), inames), (domains,),
                    lambda: _statement_domain(domains, inames))


def _statement_domain(domains: Sequence[isl.BasicSet], inames: frozenset[str]
                      ) -> isl.BasicSet:
    s = project_onto(combined_domain(domains, inames), inames)
    bsets = s.coalesce().get_basic_sets()
    if len(bsets) == 1:
        return bsets[0]
    return s.convex_hull() if bsets else isl.BasicSet.empty(s.get_space())


def bounding_inames(domains: Sequence[isl.BasicSet]) -> tuple[frozenset[str], ...]:
    """For each domain, the inames of other domains that bound its own inames: parameters
    its constraints involve once simplified in the domains defining them (``0 <= k_inner <=
    255`` copied from the parent bounds nothing).  A loop over a domain's iname must run
    inside the loops over these; it may run outside other loops, ancestors' included."""
    if not isinstance(domains, tuple):
        return _bounding_inames(domains)
    return memoized(("bounding_inames", id(domains)), (domains,),
                    lambda: _bounding_inames(domains))


def _bounding_inames(domains: Sequence[isl.BasicSet]) -> tuple[frozenset[str], ...]:
    owner = {n: k for k, d in enumerate(domains) for n in inames_of(d)}
    out: list[frozenset[str]] = []
    for k, d in enumerate(domains):
        outer = [n for n in params_of(d) if owner.get(n, k) != k]
        definers = sorted({owner[n] for n in outer})
        out.append(_involved_params(d, [domains[j] for j in definers], outer) if outer
                   else frozenset())
    return tuple(out)


def _involved_params(domain: isl.BasicSet, definers: Sequence[isl.BasicSet],
                     outer: list[str]) -> frozenset[str]:
    """The names of `outer` (parameters of `domain`) its constraints involve where the
    `definers` (the domains of those names) hold."""
    s = isl.Set.from_basic_set(domain)
    ctx = _all_to_params(definers[0]).params()
    for d in definers[1:]:
        ctx, more = _aligned(ctx, _all_to_params(d).params())
        ctx = ctx.intersect(more)
    s, ctx = _aligned(s, ctx)
    s = s.gist_params(ctx).coalesce()
    return frozenset(n for n in outer if (k := s.find_dim_by_name(dim_type.param, n)) >= 0
                     and s.involves_dims(dim_type.param, k, 1))


def _aligned(a: isl.Set, b: isl.Set) -> tuple[isl.Set, isl.Set]:
    a = a.align_params(b.get_space())
    return a, b.align_params(a.get_space())


def context_set(conditions: Iterable[Expression],
                assumptions: isl.BasicSet | None = None) -> isl.Set:
    """A parameter-only set from affine conditions (``Comparison``/``LogicalAnd`` nodes over
    inames and parameters) and the kernel's assumptions.  Non-affine conditions are dropped
    (the context only serves to prove facts, so dropping one is always safe)."""
    conditions = tuple(conditions)
    try:
        key = ("context", typed_key(conditions), id(assumptions))
    except TypeError:   # an unhashable condition: compute, do not remember
        return _context_set(conditions, assumptions)
    return memoized(key, (assumptions,), lambda: _alpha_context(conditions, assumptions))


def _alpha_context(conditions: tuple[Expression, ...],
                   assumptions: isl.BasicSet | None) -> isl.Set:
    """`_context_set`, remembered up to the names the conditions use (each kernel of a region
    cut into many has the same hardware bounds on differently named inames).  Names the
    assumptions use stay as they are, and the key records where each renamed name falls in
    the sorted order of all names, so that the set found has its parameters in the order a
    fresh computation would give them."""
    names = sorted({n for c in conditions for n in dependencies(c)})
    fixed = set() if assumptions is None else set(assumptions.get_var_names(dim_type.param))
    rename = alpha_names(n for n in names if n not in fixed)
    if rename is None:
        return _context_set(conditions, assumptions)
    # (`typed_key` keys a renamed variable apart from every kept name spelled alike)
    key = ("context~", typed_key(conditions, rename),
           tuple(rename.get(n, n) for n in names), id(assumptions))
    made: list[isl.Set] = []

    def compute() -> isl.Set:
        made.append(_context_set(conditions, assumptions))
        return _rename_params(made[0], rename)
    found = memoized(key, (assumptions,), compute)
    if made and rename:
        # The asker that computed it takes its own set, as it was before the positional
        # names were put on a copy (the copy kept; renaming that back gives the same
        # constraints on another copy).
        return made[0]
    return _rename_params(found, {new: old for old, new in rename.items()})


def _rename_params(s: isl.Set, names: dict[str, str]) -> isl.Set:
    for k in range(s.dim(dim_type.param)):
        new = names.get(s.get_dim_name(dim_type.param, k))
        if new is not None:
            s = s.set_dim_name(dim_type.param, k, new)
    return s


def _context_set(conditions: tuple[Expression, ...],
                 assumptions: isl.BasicSet | None) -> isl.Set:
    names = sorted({n for c in conditions for n in dependencies(c)})
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[], params=names)
    keys = _condition_keys(conditions)
    ctx, start = _context_prefix(keys, names, space)
    for cond in conditions[start:]:
        piece = _condition_set(space, cond)
        if piece is not None:
            ctx = ctx.intersect(piece)
    if keys is not None and names:
        memoized(("bare context", keys), (), lambda: _private_copy(ctx))
    if assumptions is not None:
        ass = _all_to_params(assumptions).params()
        ass = ass.align_params(ctx.get_space())
        ctx = ctx.align_params(ass.get_space()).intersect_params(ass)
    return ctx


def _condition_keys(conditions: tuple[Expression, ...]) -> tuple | None:
    try:
        return tuple(typed_key(c) for c in conditions)
    except TypeError:   # an unhashable condition: nothing remembered
        return None


def _context_prefix(keys: tuple | None, names: list[str], space: isl.Space
                    ) -> tuple[isl.Set, int]:
    """The intersection of the longest proper prefix of the conditions (by their `keys`)
    whose set an earlier `_context_set` left (code generation asks for the contexts of
    nested loops and guards, each its parent's conditions and more), over `space`; and
    the prefix's length.  The sets in between are the ones the loop of `_context_set`
    builds, so the answer is the one it gives from the start: each condition's set is
    intersected in the same order, and a prefix over fewer names (an inner loop's iname
    joins) has those names' columns inserted by `align_params`, all zero, as they are in
    the larger space from the start (`tests/unit/test_isl_shortcuts.py` compares both)."""
    if keys is not None:
        for k in range(len(keys) - 1, 0, -1):
            hit = _MEMO.get(("bare context", keys[:k]))
            if hit is None:
                continue
            found = hit[1]
            have = found.get_var_names(dim_type.param)
            if have == names:
                return _private_copy(found), k
            if set(have) <= set(names):
                return _private_copy(found).align_params(space), k
    return isl.Set.universe(space), 0


def _private_copy(s: isl.Set) -> isl.Set:
    """A copy of `s` (with parameters) that shares no structure with it: isl may rewrite a
    set's representation in place (a gist, a plain comparison: same points, other
    constraints), and a remembered prefix must stay as its intersection left it.  Renaming
    a parameter (to its own name) makes isl copy the set and each of its pieces."""
    return s.set_dim_name(dim_type.param, 0, s.get_dim_name(dim_type.param, 0))


def _condition_set(space: isl.Space, cond: Expression) -> isl.Set | None:
    if isinstance(cond, p.LogicalAnd):
        out = isl.Set.universe(space)
        for c in cond.children:
            piece = _condition_set(space, c)
            if piece is not None:
                out = out.intersect(piece)
        return out
    if not isinstance(cond, p.Comparison):
        return None
    try:
        left = aff_from_expr(space, cond.left)
        right = aff_from_expr(space, cond.right)
    except DomainError:
        return None
    make = {">=": left.ge_set, "<=": left.le_set, ">": left.gt_set, "<": left.lt_set,
            "==": left.eq_set, "!=": left.ne_set}.get(cond.operator)
    return None if make is None else make(right)


def loop_bound_constraints(domain: isl.BasicSet, iname: str, outer: Sequence[str],
                           context: isl.Set | None = None
                           ) -> tuple[list[tuple[int, Expression]], list[tuple[int, Expression]]]:
    """The loop bounds of `iname` inside the loops over `outer`.

    Returns (lowers, uppers): ``(a, e)`` in lowers means ``a*iname >= e``, in uppers
    ``a*iname <= e``, with `e` affine in parameters and `outer`.  Constraints implied by
    `context` (what enclosing loops already guarantee) are dropped; constraints that involve
    integer divisions (strides) are left to guards.
    """
    lowers, uppers = alpha_memoized(
        "loop_bounds", (domain, context), (iname, *outer),
        lambda: _loop_bound_constraints(domain, iname, outer, context), _renamed_bounds)
    return list(lowers), list(uppers)


def _renamed_bounds(bounds: tuple[tuple[tuple[int, Expression], ...], ...],
                    names: dict[str, str]) -> tuple[tuple[tuple[int, Expression], ...], ...]:
    return tuple(tuple((a, _renamed(e, names)) for a, e in side) for side in bounds)


def _renamed(expr: Expression, names: dict[str, str]) -> Expression:
    """`expr` with its variables renamed by `names` (`alpha_memoized`'s answers: affine
    comparisons and bounds, rebuilt node for node; other nodes through `substitute`)."""
    cls = type(expr)
    if cls is int:
        return expr
    if cls is p.Variable:
        new = names.get(expr.name)
        return expr if new is None else p.Variable(new)
    if cls is p.Sum or cls is p.Product:
        return cls(tuple(_renamed(c, names) for c in expr.children))
    if cls is p.Comparison:
        return p.Comparison(_renamed(expr.left, names), expr.operator,
                            _renamed(expr.right, names))
    return substitute(expr, {old: p.Variable(new) for old, new in names.items()})


def _renamed_conditions(conds: tuple[Expression, ...] | None, names: dict[str, str]
                        ) -> tuple[Expression, ...] | None:
    return None if conds is None else tuple(_renamed(c, names) for c in conds)


def _loop_bound_constraints(domain: isl.BasicSet, iname: str, outer: Sequence[str],
                            context: isl.Set | None
                            ) -> tuple[tuple[tuple[int, Expression], ...], ...]:
    s = project_onto(domain, set(outer) | {iname})
    for n in inames_of(s):
        if n != iname:
            k = s.find_dim_by_name(dim_type.set, n)
            s = s.move_dims(dim_type.param, s.dim(dim_type.param), dim_type.set, k, 1)
    bsets = s.coalesce().get_basic_sets()
    bs = bsets[0] if len(bsets) == 1 else s.convex_hull()
    if context is not None:
        ctx = context.params()
        aligned = isl.Set.from_basic_set(bs).align_params(ctx.get_space())
        ctx = ctx.align_params(aligned.get_space())
        gisted = aligned.gist_params(ctx).coalesce().get_basic_sets()
        bs = gisted[0] if len(gisted) == 1 else bs
    lowers, uppers = _bound_constraints(bs)
    if not lowers or not uppers:
        # The exact projection may bound the loop only through integer divisions (an inner
        # unrolled iname with a large coefficient); its rational relaxation is a superset,
        # and the statements inside keep their exact guards.
        relaxed = _bound_constraints(bs.remove_divs())
        lowers, uppers = lowers or relaxed[0], uppers or relaxed[1]
    return tuple(lowers), tuple(uppers)


def _bound_constraints(bs: isl.BasicSet
                       ) -> tuple[list[tuple[int, Expression]], list[tuple[int, Expression]]]:
    bs = bs.remove_redundancies()
    lowers: list[tuple[int, Expression]] = []
    uppers: list[tuple[int, Expression]] = []
    for c in bs.get_constraints():
        a = int(c.get_coefficient_val(dim_type.set, 0).to_python())
        if a == 0 or _involves_divs(c):
            continue
        rest = _param_terms(c)
        if c.is_equality() or a > 0:
            lowers.append((abs(a), _neg(rest) if a > 0 else rest))
        if c.is_equality() or a < 0:
            uppers.append((abs(a), rest if a < 0 else _neg(rest)))
    return lowers, uppers


def gist_conditions(domain: isl.BasicSet | isl.Set, context: isl.Set) -> list[Expression] | None:
    """The conditions of `domain` not implied by `context`, as pymbolic comparisons
    (``expr >= 0`` / ``expr == 0``).  None: no point of `domain` lies in `context`."""
    found = alpha_memoized("gist", (domain, context), (),
                           lambda: _gist_conditions(domain, context), _renamed_conditions)
    return None if found is None else list(found)


def _gist_conditions(domain: isl.BasicSet | isl.Set, context: isl.Set
                     ) -> tuple[Expression, ...] | None:
    s, ctx = _aligned(_all_to_params(domain), context)
    inside = s.intersect(ctx)
    if inside.is_empty():
        return None
    # isl (islpy 2026.2) crashes in `s.gist(ctx)` where the intersection pins a variable that
    # neither the domain nor the context pins alone (h73's fuzzer: a strided loop split with an
    # ilp inner loop, tests/e2e/test_e2e_fuzz_regressions.py); there the gist of the
    # intersection, which does not crash.  Elsewhere the domain's own gist: the same
    # conditions, but printed in another order or form, and with one such order PoCL computed
    # samples/c/covariance.c wrongly (bench/RESULTS.md, session 12).
    pinned = inside.affine_hull() != s.affine_hull().intersect(ctx.affine_hull())
    g = (inside if pinned else s).gist(ctx).coalesce()
    bsets = g.get_basic_sets()
    if len(bsets) != 1:
        g = g.convex_hull()
        bsets = [g] if isinstance(g, isl.BasicSet) else g.get_basic_sets()
    return tuple(_constraint_condition(c) for c in bsets[0].get_constraints())


def nonnegative_in(expr: Expression, context: isl.Set) -> bool:
    """Prove `expr >= 0` at every point of a parameter-only `context`."""
    return is_nonnegative(expr, context)


def hardware_range(domain: isl.BasicSet, iname: str) -> tuple[Expression, Expression, int | None]:
    """(lowest value, number of values, constant bound on that number) of `iname` over the whole
    domain; the first two as expressions in parameters.

    The lowest value is one affine expression `base` with ``base <= iname`` wherever the domain
    is not empty, and the number of values counts from it (``base + count - 1`` reaches the
    highest value), so a work item's ``base + id`` covers every value.  Where the exact lowest
    value is piecewise (a split with a parameter lower bound: ``max(0, n - 36)``), `base` is the
    piece that keeps the count smallest (constant where possible), never a minimum of pieces
    that the count does not account for.
    """
    entry = _range_entry(domain, iname)
    return entry.base, entry.count(), entry.extent


def hardware_span(domain: isl.BasicSet, iname: str) -> tuple[Expression, int | None]:
    """`hardware_range`'s lowest value and constant bound, without the number of values:
    a local iname's work-group size is the bound, and its count expression (``min(16,
    n - 1)`` for a split, a minimum of pieces isl has to prove) is never read there.
    The count is built on first need from the same choice (`_Range`); a split's inner
    iname, whose own constraints already say its range, is read from them
    (`_constant_span`)."""
    entry = _range_entry(domain, iname)
    return entry.base, entry.extent


#: Whether `hardware_span` first tries `_constant_span` (tests compare both ways).
SPAN_SHORTCUT = True

#: The corner of the orthant of parameter values `_constant_span` asks about.
_WIDE = 1 << 20


def _constant_span(domain: isl.BasicSet, iname: str) -> tuple[int, int] | None:
    """`hardware_span`'s answer ``(L, U - L + 1)`` where `domain` (over `iname` alone) holds
    ``L <= iname <= U`` as constraints of `iname` alone (a split's inner iname: ``0 <=
    i_inner <= 15``) and both `L` and `U` are values of `iname` for every parameter value
    of an orthant (each parameter at least `_WIDE`: the split of a range long enough);
    None where that is not read or proved (the general path answers).

    Why it is the general path's answer (`_hardware_choice`): there the lowest value `lo`
    is at least `L` and the highest `hi` at most `U` everywhere, and both are attained on
    the orthant, so `L` is `lo`'s constant minimum, a candidate base whose number of values
    `hi - L + 1` has the bound `U - L + 1`.  Any other candidate `c` is at most `lo`, so at
    most `L` on the orthant, where its number of values reaches `U - c + 1 >= U - L + 1`:
    none has a smaller bound, and one with the same bound is `L` on the whole orthant.  A
    quasi-affine function (isl's pieces: affine in the parameters and their integer
    divisions) constant on an orthant is that constant everywhere (its differences over a
    period are constant, zero on the orthant, and the orthant holds a whole period), so
    it is `L` (a duplicate of the constant candidate, or the constant dropped as its
    duplicate)."""
    if (not isinstance(domain, isl.BasicSet) or domain.dim(dim_type.set) != 1
            or domain.get_dim_name(dim_type.set, 0) != iname):
        return None
    bounds = _own_bounds(domain)
    if bounds is None:
        return None
    low, high = bounds
    ctx = domain.get_ctx()
    space = domain.get_space().params()
    orthant = isl.BasicSet.universe(space)
    for k in range(domain.dim(dim_type.param)):
        c = isl.Constraint.inequality_alloc(isl.LocalSpace.from_space(space))
        c = c.set_coefficient_val(dim_type.param, k, isl.Val.one(ctx))
        orthant = orthant.add_constraint(c.set_constant_val(isl.Val.int_from_si(ctx, -_WIDE)))
    for value in (low, high):
        where = domain.fix_val(dim_type.set, 0, isl.Val.int_from_si(ctx, value)).params()
        if not orthant.is_subset(where):
            return None
    return low, high - low + 1


def _own_bounds(domain: isl.BasicSet) -> tuple[int, int] | None:
    """The tightest ``(L, U)`` with ``L <= iname <= U`` among the constraints of `domain`
    (one set dim) that involve that dim alone, with coefficient 1 or -1; None without
    both."""
    low: int | None = None
    high: int | None = None
    params, divs = domain.dim(dim_type.param), domain.dim(dim_type.div)
    for c in domain.get_constraints():
        a = c.get_coefficient_val(dim_type.set, 0).to_python()
        if a not in (1, -1) or (params and c.involves_dims(dim_type.param, 0, params)) \
                or (divs and c.involves_dims(dim_type.div, 0, divs)):
            continue
        k = int(c.get_constant_val().to_python())
        # a*iname + k >= 0 (or == 0): a lower bound -k (a = 1) or an upper bound k (a = -1)
        if a == 1 or c.is_equality():
            low = -a * k if low is None else max(low, -a * k)
        if a == -1 or c.is_equality():
            high = -a * k if high is None else min(high, -a * k)
    if low is None or high is None or high < low:
        return None
    return low, high


def _range_entry(domain: isl.BasicSet, iname: str) -> _Range:
    key = alpha_key(domain)
    if key is None:
        return memoized(("hardware_range", id(domain), iname), (domain,),
                        lambda: _span_or_choice(domain, iname))
    # the answer is in parameters only: the same for every loop of this shape
    position = inames_of(domain).index(iname) if iname in inames_of(domain) else iname
    return memoized(("hardware_range", key, position), (),
                    lambda: _span_or_choice(domain, iname))


def _span_or_choice(domain: isl.BasicSet, iname: str) -> _Range:
    """`_hardware_choice`'s answer, its base and bound read by `_constant_span` where that
    answers (the count then made from the general answer on first need)."""
    if SPAN_SHORTCUT:
        found = _constant_span(domain, iname)
        if found is not None:
            return _Range(found[0], found[1], None, None,
                          lambda: _hardware_choice(domain, iname).count())
    return _hardware_choice(domain, iname)


class _Range:
    """`_hardware_range`'s answer with the count expression made on first need, from the
    number of values chosen (an isl piecewise function no other code holds)."""

    __slots__ = ("base", "extent", "_size", "_count", "_general")

    def __init__(self, base: Expression, extent: int | None, size: isl.PwAff | None,
                 count: Expression | None,
                 general: Callable[[], Expression] | None = None) -> None:
        self.base, self.extent, self._size, self._count = base, extent, size, count
        self._general = general   # (`_span_or_choice`: the count from the general path)

    def count(self) -> Expression:
        if self._count is None:
            if self._general is not None:
                self._count, self._general = self._general(), None
            else:
                self._count, self._size = upper_expression(self._size), None
        return self._count


def _hardware_range(domain: isl.BasicSet | isl.Set, iname: str
                    ) -> tuple[Expression, Expression, int | None]:
    entry = _hardware_choice(domain, iname)
    return entry.base, entry.count(), entry.extent


def _hardware_choice(domain: isl.BasicSet | isl.Set, iname: str) -> _Range:
    s = isl.Set.from_basic_set(domain) if isinstance(domain, isl.BasicSet) else domain
    lo, hi = iname_bounds(s, iname, ())
    best: tuple[tuple[int, int, int], isl.PwAff, isl.PwAff, int | None] | None = None
    for k, base in enumerate(_base_candidates(lo)):
        size = hi.sub(base).add_constant_val(isl.Val.one(s.get_ctx())).coalesce()
        extent = _max_int(size)
        key = (extent is None, extent or 0, size.n_piece(), k)
        if best is None or key < best[0]:
            best = (key, base, size, extent)
    if best is None:
        size = hi.sub(lo).add_constant_val(isl.Val.one(s.get_ctx())).coalesce()
        base_expr = expr_from_pwaff(lo, combine="min")
        hi_expr = expr_from_pwaff(hi, combine="max")
        count = p.Sum((hi_expr, p.Product((-1, base_expr)), 1))
        return _Range(base_expr, None, None, count)
    _, base, size, extent = best
    # (no pieces: `upper_expression` raises, here as it always did)
    count = upper_expression(size) if size.n_piece() == 0 else None
    return _Range(expr_from_pwaff(base), extent, size, count)


def upper_expression(pw: isl.PwAff) -> Expression:
    """An expression at least `pw` wherever it is defined, and equal to it where possible:
    ``min`` of the pieces where `pw` is their minimum (a split group loop: ``min(528,
    (n + 255) // 256)``), otherwise the ``max`` of the pieces (a safe bound)."""
    pieces = [isl.PwAff.from_aff(aff) for _, aff in pw.coalesce().get_pieces()]
    if len(pieces) > 1:
        low = pieces[0]
        for q in pieces[1:]:
            low = low.min(q)
        if pw.ne_set(low).is_empty():
            return expr_from_pwaff(pw, combine="min")
    return expr_from_pwaff(pw, combine="max")


def _base_candidates(lo: isl.PwAff) -> list[isl.PwAff]:
    """Affine expressions (total on the parameter space) that are at most `lo` wherever `lo`
    is defined: its pieces that bound it everywhere, and its constant minimum."""
    space = lo.get_domain_space()
    candidates: list[isl.PwAff] = []
    for _, aff in lo.coalesce().get_pieces():
        candidates.append(isl.PwAff.from_aff(aff))
    low = _min_int(lo)
    if low is not None:
        candidates.append(isl.PwAff.from_aff(isl.Aff.zero_on_domain(isl.LocalSpace.from_space(
            space)).set_constant_val(isl.Val.int_from_si(lo.get_ctx(), low))))
    out: list[isl.PwAff] = []
    for c in candidates:
        if lo.lt_set(c).is_empty() and not any(c.is_equal(d) for d in out):
            out.append(c)
    return out


def _max_int(pw: isl.PwAff) -> int | None:
    try:
        v = pw.max_val()
        return int(v.to_python()) if v.is_int() else None
    except isl.Error:
        return None


def _min_int(pw: isl.PwAff) -> int | None:
    try:
        v = pw.min_val()
        return int(v.to_python()) if v.is_int() else None
    except isl.Error:
        return None


def restrict_context(context: isl.Set, domain: isl.BasicSet | isl.Set) -> isl.Set:
    """`context` intersected with `domain` (its inames as parameters)."""
    ctx, dom = _aligned(context, _all_to_params(domain))
    return ctx.intersect(dom)


def writes_cover_box(accesses: Sequence[tuple[isl.BasicSet, Sequence[Expression]]],
                     shape: Sequence[Expression], assumptions: isl.BasicSet | None = None) -> bool:
    """Whether the union of write footprints (statement domain, subscript) covers every element
    of an array of `shape` (for every parameter value allowed by `assumptions`)."""
    if not accesses or any(e is None for e in shape):
        return False
    key = _cover_key(accesses, shape, assumptions)
    if key is None:
        return _writes_cover_box(accesses, shape, assumptions)
    return memoized(key, (assumptions,),
                    lambda: _writes_cover_box(accesses, shape, assumptions))


def _cover_key(accesses: Sequence[tuple[isl.BasicSet, Sequence[Expression]]],
               shape: Sequence[Expression], assumptions: isl.BasicSet | None) -> tuple | None:
    """A key for `writes_cover_box` up to the names of each domain's set dims (the answer is
    yes or no), or None where one cannot be made (`alpha_key`)."""
    parts: list = []
    for domain, indices in accesses:
        key = alpha_key(domain)
        names = alpha_names(inames_of(domain))
        texts = [str(i) for i in indices]
        if key is None or names is None or any(ALPHA in t for t in texts):
            return None
        parts.append((key, tuple(renamed_text(t, names) for t in texts)))
    return ("cover~", tuple(parts), tuple(str(e) for e in shape), id(assumptions))


def _writes_cover_box(accesses: Sequence[tuple[isl.BasicSet, Sequence[Expression]]],
                      shape: Sequence[Expression], assumptions: isl.BasicSet | None) -> bool:
    if TILES_SHORTCUT and _tiles_cover(accesses, shape):
        return True
    if _uncovered_corner(accesses, shape, assumptions):
        return False
    names = [f"_tr_e{k}" for k in range(len(shape))]
    image = None
    try:
        for domain, indices in accesses:
            if len(indices) != len(shape):
                return False
            img = _footprint(domain, indices, names)
            image = img if image is None else image.union(img.align_params(image.get_space()))
        box = _box(shape, names, image.get_space())
    except (DomainError, isl.Error):
        return False
    box, image = box.align_params(image.get_space()), image.align_params(box.get_space())
    if assumptions is not None:
        ass = _all_to_params(assumptions).params()
        box = box.intersect_params(ass.align_params(box.get_space()))
    return box.is_subset(image.align_params(box.get_space()))


#: Whether `_writes_cover_box` first tries `_tiles_cover` (tests compare both ways).
TILES_SHORTCUT = True


def _tiles_cover(accesses: Sequence[tuple[isl.BasicSet, Sequence[Expression]]],
                 shape: Sequence[Expression]) -> bool:
    """True where one write covers the box by construction, read from its domain's text
    without isl's projection: each subscript is one iname (``0 <= i <= E - 1``) or a
    tile's pair (``i + B*o`` with ``0 <= i <= B - 1``, ``o >= 0`` and either the tail
    ``i + B*o <= E - 1`` or, for an extent ``E = B*M``, ``o <= M - 1``), ``E`` the box's
    extent on that axis; the domain's constraints are exactly those, on distinct inames
    (a product of ranges, each the box's, for every value of the parameters: the box lies
    in the footprint, as the full test finds).  False where that is not so (the full test
    decides), never a wrong True."""
    if len(accesses) != 1 or not isinstance(accesses[0][0], isl.BasicSet):
        return False
    domain, indices = accesses[0]
    if len(indices) != len(shape) or domain.dim(dim_type.div):
        return False
    read = _plain_constraints(domain.to_str())
    if read is None:
        return False
    inames, params, left = read
    used: set[str] = set()
    for index, extent in zip(indices, shape):
        found = _tile_constraints(index, extent, set(inames) - used, set(params))
        if found is None:
            return False
        names, choices = found
        fits = [c for c in choices if c <= left]
        if not fits:
            return False
        used |= names
        left = left - fits[0]
    return not left and used == set(inames)


def _tile_constraints(index: Expression, extent: Expression, free: set[str], params: set[str]
                      ) -> tuple[set[str], list[set[_Linear]]] | None:
    """The inames of `index` and the sets of constraints (`_tiles_cover`) under which it
    ranges over ``0 .. extent - 1`` exactly; None where it is not one iname or a tile's pair
    of `free` inames, or `extent` is not affine in `params`."""
    linear, size = _linear_form(index), _linear_form(extent)
    if linear is None or size is None or linear[1] != 0 or not set(size[0]) <= params:
        return None
    terms = {n: c for n, c in linear[0].items() if c}
    if not terms or not set(terms) <= free:
        return None
    last = {n: c for n, c in size[0].items() if c}   # extent - 1 = last + size[1] - 1
    if len(terms) == 1:
        ((name, c),) = terms.items()
        if c != 1:
            return None
        return {name}, [{_linear({name: 1}, 0), _linear(_minus(last, {name: 1}), size[1] - 1)}]
    inner = [n for n, c in terms.items() if c == 1]
    outer = [n for n, c in terms.items() if c > 1]
    if len(terms) != 2 or len(inner) != 1 or len(outer) != 1:
        return None
    (i,), (o,) = inner, outer
    tile = terms[o]
    box = {_linear({o: 1}, 0), _linear({i: 1}, 0), _linear({i: -1}, tile - 1)}
    choices = [box | {_linear(_minus(last, {i: 1, o: tile}), size[1] - 1)}]
    if size[1] % tile == 0 and all(c % tile == 0 for c in last.values()):
        # an exact tiling: isl keeps ``o <= M - 1`` in place of the tail
        blocks = {n: c // tile for n, c in last.items()}
        choices.append(box | {_linear(_minus(blocks, {o: 1}), size[1] // tile - 1)})
    return {i, o}, choices


#: The value every parameter takes in `_uncovered_corner`'s witness.
_WITNESS_VALUE = 1000


def _uncovered_corner(accesses: Sequence[tuple[isl.BasicSet, Sequence[Expression]]],
                      shape: Sequence[Expression], assumptions: isl.BasicSet | None) -> bool:
    """Whether the first or the last element of the box, for every parameter equal to
    `_WITNESS_VALUE` (where the assumptions allow it and the box holds elements), is written
    by no access: a point of the box outside the image, so `_writes_cover_box` is False (its
    answer, without projecting the footprints: a stencil's boundary is not written).  False
    where no such witness is found or the question does not fit (the full test decides)."""
    try:
        names = sorted({n for d, _ in accesses for n in params_of(d)}
                       | {n for e in shape for n in dependencies(e)})
        values = {n: _WITNESS_VALUE for n in names}
        if not _allowed(values, assumptions):
            return False
        extents = [evaluate(e, {**values, "max": max, "min": min}) for e in shape]
        if not all(type(x) is int and x >= 1 for x in extents) \
                or any(len(indices) != len(shape) for _, indices in accesses):
            return False
        return any(not any(_writes_element(d, indices, values, corner) for d, indices in accesses)
                   for corner in ([0] * len(shape), [x - 1 for x in extents]))
    except (DomainError, isl.Error, TypeError, ValueError, KeyError, ZeroDivisionError,
            UnknownVariableError):   # a shape with a call evaluate does not know
        return False


def _allowed(values: dict[str, int], assumptions: isl.BasicSet | None) -> bool:
    """Whether the parameter values satisfy the assumptions (all of whose names they give)."""
    if assumptions is None:
        return True
    ass = _all_to_params(assumptions).params()
    for k, name in enumerate(ass.get_var_names(dim_type.param)):
        if name not in values:
            return False
        ass = ass.fix_val(dim_type.param, k, isl.Val.int_from_si(ass.get_ctx(), values[name]))
    return not ass.is_empty()


def _writes_element(domain: isl.BasicSet, indices: Sequence[Expression],
                    values: dict[str, int], element: list[int]) -> bool:
    """Whether some point of `domain` (its parameters at `values`) has `indices` equal to
    `element`."""
    s = isl.Set.from_basic_set(domain)
    for k, name in enumerate(s.get_var_names(dim_type.param)):
        s = s.fix_val(dim_type.param, k, isl.Val.int_from_si(s.get_ctx(), values[name]))
    s = _align_params(s, {n for e in indices for n in dependencies(e)})
    space = s.get_space()
    for idx, at in zip(indices, element):
        s = s.intersect(aff_from_expr(space, p.Sum((idx, -at))).zero_set())
    return not s.is_empty()


def runs_on_whole_box(domains: Sequence[isl.BasicSet], inames: Sequence[str],
                      box: Sequence[Expression], assumptions: isl.BasicSet | None = None
                      ) -> bool:
    """Whether a statement within exactly `inames` runs at every point of `box` (affine
    conditions on `inames` and parameters, such as a launched grid of work groups) wherever
    it runs at all, for every parameter value allowed by `assumptions`: `box` lies inside the
    exact projection of the statement's domain onto `inames` (no convex hull) for each
    parameter value where that projection is not empty.  Conditions of `box` that are not
    affine are dropped, which only makes the box larger: a True answer is a proof."""
    try:
        ran = _all_to_params(project_onto(combined_domain(domains, inames), inames)).params()
        points = context_set(box, assumptions).params()
    except (DomainError, isl.Error):
        return False
    somewhere = ran
    for name in inames:
        somewhere = somewhere.project_out(
            dim_type.param, somewhere.find_dim_by_name(dim_type.param, name), 1)
    points, somewhere = _aligned(points, somewhere)
    points = points.intersect_params(somewhere)
    points, ran = _aligned(points, ran)
    return bool(points.is_subset(ran))


def _footprint(domain: isl.BasicSet, indices: Sequence[Expression], names: list[str]) -> isl.Set:
    return _footprint_of(isl.Set.from_basic_set(domain), indices, names)


def _box(shape: Sequence[Expression], names: list[str], like: isl.Space) -> isl.Set:
    params = sorted({d for e in shape for d in dependencies(e)})
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=names, params=params)
    box = isl.Set.universe(space)
    for nm, extent in zip(names, shape):
        v = aff_from_expr(space, p.Variable(nm))
        box = box.intersect(v.ge_set(aff_from_expr(space, 0)))
        box = box.intersect(v.lt_set(aff_from_expr(space, extent)))
    return box


def bounds_independent(domain: isl.BasicSet | isl.Set, inames: Iterable[str],
                       others: Iterable[str]) -> bool:
    """Whether the values `inames` take in `domain` do not depend on the values of `others`:
    the projection onto both groups is the product of the projections onto each."""
    a, b = set(inames), set(others) - set(inames)
    if not a or not b:
        return True
    joint = project_onto(domain, a | b)
    first = _all_to_params(project_onto(joint, a)).params()
    second = _all_to_params(project_onto(joint, b)).params()
    first, second = _aligned(first, second)
    product, whole = _aligned(first.intersect(second), _all_to_params(joint).params())
    return bool(product.is_subset(whole))


def _footprint_of(s: isl.Set, indices: Sequence[Expression], names: Sequence[str]) -> isl.Set:
    """The elements `indices` take over `s`, as a set over new dims `names`."""
    n0 = s.dim(dim_type.set)
    s = s.add_dims(dim_type.set, len(names))
    for k, nm in enumerate(names):
        s = s.set_dim_name(dim_type.set, n0 + k, nm)
    s = _align_params(s, {d for e in indices for d in dependencies(e)})
    for nm, idx in zip(names, indices):
        diff = aff_from_expr(s.get_space(), p.Sum((p.Variable(nm), p.Product((-1, idx)))))
        s = s.intersect(diff.zero_set())
    return project_onto(s, names)
