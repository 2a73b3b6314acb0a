"""isl glue for full-tile versioning (`translator.codegen.versioning`).

A work group whose whole tile lies inside the iteration domain needs none of the per-statement
guards.  The sets here are parameter-only: group ids, value arguments and uniform loop inames
are the *kept* names (what a test at kernel start or at the top of a loop iteration may use);
everything else a context mentions (local ids, inner loop inames, unrolled values) is projected
away existentially.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence

import islpy as isl

import pymbolic.primitives as p

from translator.diagnostics import DomainError
from translator.ir.expr import Expression, dependencies, typed_key
from translator.ir.isl_glue.codegen import _aligned, context_set, gist_conditions
from translator.ir.isl_glue.core import (_all_to_params, _involves_divs, _plain_constraints,
                                        aff_from_expr, dim_type, project_onto, text_memoized)


def keep_params(s: isl.Set, keep: Collection[str]) -> isl.Set:
    """`s` (parameter-only) with every parameter not in `keep` projected out."""
    for k in reversed(range(s.dim(dim_type.param))):
        if s.get_dim_name(dim_type.param, k) not in keep:
            s = s.project_out(dim_type.param, k, 1)
    return s


def guard_free_set(context: isl.Set, executed: isl.BasicSet | isl.Set, base: isl.Set,
                   keep: Collection[str]) -> isl.Set | None:
    """The values of the `keep` names within `base` for which the code reaches a statement
    (`context`) and every point where it does lies in `executed` (where the statement must run): there the
    statement's guard can go.  None when that set is empty, is not one convex piece without
    integer divisions (not a cheap test), or is all of `base` (there is no guard to remove)."""
    ctx, dom = _aligned(context, _all_to_params(executed))
    bad = keep_params(ctx.subtract(dom), keep)
    reached, bad = _aligned(keep_params(ctx, keep), bad)
    good, reached = _aligned(base, reached)
    # only where the statement is reached: an empty loop is not a full tile
    good = good.intersect(reached).subtract(bad.align_params(reached.get_space())).coalesce()
    if good.is_empty() or not _simple_over(good, base):
        return None
    if base.is_subset(good.align_params(base.get_space())):
        return None
    return good


def intersect_simple(sets: Sequence[isl.Set], base: isl.Set) -> isl.Set | None:
    """The intersection of `sets` (at least one), or None when it is empty or not simple
    (relative to `base`)."""
    out = sets[0]
    for s in sets[1:]:
        out, s = _aligned(out, s)
        out = out.intersect(s)
    out = out.coalesce()
    if out.is_empty() or not _simple_over(out, base):
        return None
    return out


def tile_conditions(full: isl.Set, context: isl.Set) -> list[Expression] | None:
    """The conditions of `full` not implied by `context` (None: they contradict it)."""
    return gist_conditions(full, context)


def work_conditions(executed: Sequence[isl.BasicSet | isl.Set], context: isl.Set,
                    keep: Collection[str]) -> list[Expression]:
    """Tests over the `keep` names under which some point of `executed` (the domains of the
    statements a loop must run) lies in `context`: outside them that loop has nothing to do.
    Empty when there is nothing to test (the work covers every kept point of `context`, none
    of it lies there, or the set is not one convex piece without integer divisions: not a
    cheap test)."""
    base = keep_params(context, keep)
    work = None
    for dom in executed:
        ctx, d = _aligned(context, _all_to_params(dom))
        s = keep_params(ctx.intersect(d), keep)
        work = s if work is None else work.union(s.align_params(work.get_space()))
    if work is None:
        return []
    work, base = _aligned(work.coalesce(), base)
    if work.is_empty() or base.is_subset(work) or not _simple_over(work, base):
        return []
    return gist_conditions(work, base) or []


def relaxed_domain(domain: isl.BasicSet | isl.Set, joint: Collection[str]) -> isl.Set:
    """A parameter-only superset of `domain`: the `joint` inames within the projection of
    `domain` onto them, and every other iname within its range over `domain` for any value
    of the parameters (the constraints that tie those to each other or to the sizes
    dropped)."""
    return text_memoized("relaxed", (domain,), (tuple(sorted(joint)),),
                         lambda: _relaxed_domain(domain, joint))


def _relaxed_domain(domain: isl.BasicSet | isl.Set, joint: Collection[str]) -> isl.Set:
    out = _all_to_params(project_onto(domain, joint))
    for name in domain.get_var_names(dim_type.set):
        if name not in joint:
            piece = project_onto(domain, {name})
            piece = _all_to_params(piece.project_out(dim_type.param, 0,
                                                     piece.dim(dim_type.param)))
            out, piece = _aligned(out, piece)
            out = out.intersect(piece)
    return out.coalesce()


def entries(points: isl.BasicSet | isl.Set, exprs: Sequence[Expression | None],
            names: Sequence[str], drop: Collection[str]) -> isl.Set:
    """The values of the affine `exprs` (parameters named `names`; None: any value) over
    `points`, with the parameters in `drop` projected out."""
    try:
        extra = (tuple(None if e is None else typed_key(e) for e in exprs), tuple(names),
                 tuple(sorted(drop)))
    except TypeError:   # an unhashable leaf: compute, do not remember
        return _entries(points, exprs, names, drop)
    return text_memoized("entries", (points,), extra,
                         lambda: _entries(points, exprs, names, drop))


def _entries(points: isl.BasicSet | isl.Set, exprs: Sequence[Expression | None],
             names: Sequence[str], drop: Collection[str]) -> isl.Set:
    """(The answer only feeds `disjoint`: a yes or no, whatever constraints describe it.  The
    equalities are gathered in one set and intersected with `points` once: each
    intersection of a set of several pieces simplifies every piece again.)"""
    s = _all_to_params(points)
    first = s.dim(dim_type.param)
    s = s.add_dims(dim_type.param, len(names))
    for k, name in enumerate(names):
        s = s.set_dim_name(dim_type.param, first + k, name)
    space = s.get_space()
    equal = isl.Set.universe(space)
    for name, expr in zip(names, exprs):
        if expr is not None:
            equal = equal.intersect(
                aff_from_expr(space, p.Variable(name)).eq_set(aff_from_expr(space, expr)))
    s = s.intersect(equal)
    return keep_params(s, [n for n in s.get_var_names(dim_type.param) if n not in drop])


def difference(a: isl.BasicSet | isl.Set, b: isl.BasicSet | isl.Set) -> isl.Set:
    """The points of `a` outside `b` (both as parameter-only sets)."""
    return text_memoized("difference", (a, b), (), lambda: _difference(a, b))


def _difference(a: isl.BasicSet | isl.Set, b: isl.BasicSet | isl.Set) -> isl.Set:
    a, b = _aligned(_all_to_params(a), _all_to_params(b))
    return a.subtract(b).coalesce()


def box_inside(box: isl.Set, b: isl.BasicSet | isl.Set) -> bool | None:
    """Whether the parameter-only set `box` lies in `b` (its set dims and parameters matched
    by name), read from both texts without isl where `box` is a box (each constraint on one
    name) and `b` a conjunction of affine constraints: the lowest or highest value of each
    constraint of `b` over the box is at one of its corners, so `box` lies in `b` exactly
    where no corner breaks a constraint.  None where the texts are not so (ask isl)."""
    a, other = _plain_constraints(box.to_str()), _plain_constraints(b.to_str())
    if a is None or other is None or a[0]:
        return None
    ranges: dict[str, list[float]] = {}
    for terms, constant, equality in a[2]:
        if len(terms) != 1:
            return None
        ((name, coefficient),) = terms
        limits = ranges.setdefault(name, [-math.inf, math.inf])
        sides = ((coefficient, constant), (-coefficient, -constant))
        for c, k in sides if equality else sides[:1]:
            if c > 0:     # c*x + k >= 0: x >= ceil(-k / c)
                limits[0] = max(limits[0], -(k // c))
            else:         # x <= floor(k / -c)
                limits[1] = min(limits[1], k // -c)
    if any(low > high for low, high in ranges.values()):
        return True   # an empty box
    for terms, constant, equality in other[2]:
        least = most = constant
        for name, c in terms:
            low, high = ranges.get(name, (-math.inf, math.inf))
            least += c * (low if c > 0 else high)
            most += c * (high if c > 0 else low)
        if least < 0 or (equality and most > 0):
            return False
    return True


def disjoint(a: isl.Set, b: isl.Set) -> bool:
    """Whether the parameter-only sets `a` and `b` share no point."""
    return text_memoized("disjoint", (a, b), (), lambda: _disjoint(a, b))


def _disjoint(a: isl.Set, b: isl.Set) -> bool:
    a, b = _aligned(a, b)
    return bool(a.intersect(b).is_empty())


def affine_condition(cond: Expression) -> isl.Set | None:
    """The parameter set where `cond` holds, when it is a comparison (or a conjunction of
    comparisons) of affine expressions; None otherwise (nothing is dropped silently)."""
    names = sorted(dependencies(cond))
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[], params=names)
    return _strict_condition(space, cond)


def _strict_condition(space: isl.Space, cond: Expression) -> isl.Set | None:
    if isinstance(cond, p.LogicalAnd):
        out = isl.Set.universe(space)
        for c in cond.children:
            piece = _strict_condition(space, c)
            if piece is None:
                return None
            out = out.intersect(piece)
        return out
    if not isinstance(cond, p.Comparison) or cond.operator == "!=":
        return None
    try:
        left = aff_from_expr(space, cond.left)
        right = aff_from_expr(space, cond.right)
    except (DomainError, isl.Error):
        return None
    make = {">=": left.ge_set, "<=": left.le_set, ">": left.gt_set, "<": left.lt_set,
            "==": left.eq_set}[cond.operator]
    return make(right)


def holds_in(condition: isl.Set, context: isl.Set) -> bool:
    """Whether every point of the parameter set `context` satisfies `condition`."""
    ctx, cond = _aligned(context, condition)
    return bool(ctx.is_subset(cond))


def trip_set(domain: isl.BasicSet | isl.Set, iname: str, outer: Collection[str]) -> isl.Set:
    """The constraints of `domain` on `iname` given values of `outer` inside it (as parameters):
    what a loop over `iname` tests, without the conditions of the enclosing code."""
    s = project_onto(domain, set(outer) | {iname})
    around = _all_to_params(project_onto(s, set(outer)))
    s = _all_to_params(s)
    s, around = _aligned(s, around)
    return s.gist(around)


def set_conditions(assumptions: isl.BasicSet | isl.Set) -> list[Expression]:
    """The constraints of a parameter set (a kernel's assumptions), one condition each
    (``e >= 0`` / ``e == 0``, integer divisions as floor divisions)."""
    ctx = context_set((), assumptions)
    return gist_conditions(ctx, isl.Set.universe(ctx.get_space())) or []


def _simple_over(s: isl.Set, base: isl.Set) -> bool:
    """Whether what `s` adds to `base` is one conjunction of affine tests without integer
    divisions."""
    s, base = _aligned(s, base)
    bsets = s.gist(base).coalesce().get_basic_sets()
    if len(bsets) != 1:
        return False
    return not any(_involves_divs(c) for c in bsets[0].get_constraints())
