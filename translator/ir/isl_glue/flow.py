"""isl glue for value-based (last-writer) dependences on one variable.

The analysis describes each access of the variable (`FlowAccess`): its statement instances,
where they sit in the sequential order (a schedule vector of constants and iname names), the
element they touch, whether a write surely happens, and, per hardware axis, which work item
runs it.  `first_cross_flow` then answers: does some read get its value from a write that a
different work item runs, or from no write at all?  isl's `compute_flow` gives the last
writers; writes that are only *possibly* executed (data-dependent conditions) are may-sources,
except that a write under the same data-dependent condition, at the same values of the
inames that condition depends on, is known to happen before the read (`Guarantee`) and so
hides the writes before it.
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl
import pymbolic.primitives as p

from translator.ir.expr import Expression, dependencies, substitute
from translator.ir.isl_glue.codegen import _condition_set
from translator.ir.isl_glue.core import (
    _align_params, _param_set_aligned, aff_from_expr, combined_domain, dim_type,
    params_to_set_dims, project_onto, _all_to_params,
)
from translator.ir.isl_glue.dependences import find_conflict, instance_set
from translator.records import dataclass

_READER = "_tr_r_"


@dataclass(frozen=True)
class FlowAccess:
    """One access to the variable.

    `inames`: the instance dimensions (loop order); `schedule`: the position in the sequential
    order, ints and names from `inames`; `index`: the element (None: any element of `shape`);
    `conditions`: affine predicates (others must have made `must` False); `extra`: inames the
    access ranges over inside one instance (a reduction's), projected out; `coords`: work-item
    coordinate per hardware axis, an expression in `inames` and parameters (an axis missing:
    every work item along it runs the instance).
    """

    inames: tuple[str, ...]
    schedule: tuple[int | str, ...]
    index: tuple[Expression, ...] | None
    is_write: bool
    must: bool = True
    conditions: tuple[Expression, ...] = ()
    extra: tuple[str, ...] = ()
    coords: tuple[tuple[str, Expression], ...] = ()


@dataclass(frozen=True)
class Guarantee:
    """Write access `write` surely ran before an instance of read access `read` when it comes
    before it in the sequential order at equal values of `equal` (the inames its
    data-dependent conditions depend on: the read runs under the same conditions)."""

    write: int
    read: int
    equal: tuple[str, ...]


@dataclass(frozen=True)
class CrossFlow:
    """A read whose value comes from another work item's write (`write` is None: from no write
    in the kernel).  Points are iname values; `axis` the hardware axis they differ on."""

    read: int
    write: int | None
    read_point: dict[str, int]
    write_point: dict[str, int]
    params: dict[str, int]
    axis: str | None


def affine_condition(cond: Expression, names: set[str]) -> bool:
    """Whether `cond` is an affine condition over `names` (isl can represent it exactly)."""
    deps = dependencies(cond)
    if not deps <= names:
        return False
    space = isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=[], params=sorted(deps))
    return _condition_set(space, cond) is not None and _exact(cond)


def _exact(cond: Expression) -> bool:
    """`_condition_set` drops non-affine parts of a conjunction; every part must be affine."""
    if isinstance(cond, p.LogicalAnd):
        names = set().union(*(dependencies(c) for c in cond.children))
        return all(affine_condition(c, names) for c in cond.children)
    return True


def first_cross_flow(domains: Sequence[isl.BasicSet], assumptions: isl.BasicSet | None,
                     accesses: Sequence[FlowAccess], shape: Sequence[int | None],
                     guarantees: Sequence[Guarantee] = (), initialised: bool = False
                     ) -> CrossFlow | None:
    """The first read (in `accesses` order) whose last writer may run in another work item, or
    which may have no writer (unless the variable is `initialised`: then that read sees the
    initial value, the same in every work item); None when every read is proved to read its
    own work item's value."""
    width = 2 * max((len(a.inames) for a in accesses), default=0) + 2
    maps = [_access_map(domains, assumptions, a, k, shape) for k, a in enumerate(accesses)]
    scheds = [_schedule_map(maps[k], a, width) for k, a in enumerate(accesses)]
    writes = [k for k, a in enumerate(accesses) if a.is_write]
    for r, read in enumerate(accesses):
        if read.is_write or maps[r].is_empty():
            continue
        found = _check_read(accesses, maps, scheds, writes, r, guarantees, initialised)
        if found is not None:
            return found
    return None


def _check_read(accesses, maps, scheds, writes, r, guarantees, initialised: bool
                ) -> CrossFlow | None:
    info = isl.UnionAccessInfo.from_sink(isl.UnionMap.from_map(maps[r]))
    must = _union([maps[w] for w in writes if accesses[w].must])
    may = _union([maps[w] for w in writes if not accesses[w].must])
    if must is not None:
        info = info.set_must_source(must)
    if may is not None:
        info = info.set_may_source(may)
    sched = _union([scheds[k] for k in [r, *writes]])
    flow = info.set_schedule_map(sched).compute_flow()
    deps = flow.get_may_dependence()
    sure = [g for g in guarantees if g.read == r]
    for g in sure:
        deps = deps.subtract(_killed(accesses, maps, scheds, g, deps))
    no_source = flow.get_may_no_source().domain()
    for g in sure:
        no_source = no_source.subtract(_guaranteed(accesses, maps, scheds, g).domain())
    if not initialised and not no_source.is_empty():
        point = _sample(isl.Set.from_union_set(no_source) if isinstance(no_source, isl.UnionSet)
                        else no_source)
        named = dict(zip(accesses[r].inames, point[0]))
        return CrossFlow(r, None, named, {}, point[1], None)
    for w in writes:
        piece = _restrict(deps, maps[w], maps[r])
        if piece is None:
            continue
        found = _cross(accesses, w, r, piece)
        if found is not None:
            return found
    return None


def _union(maps: list[isl.Map]) -> isl.UnionMap | None:
    out = None
    for m in maps:
        u = isl.UnionMap.from_map(m)
        out = u if out is None else out.union(u)
    return out


def _access_map(domains, assumptions, acc: FlowAccess, key: int, shape: Sequence[int | None]
                ) -> isl.Map:
    """{A<key>[inames] -> V[element]} for the instances of `acc`."""
    inames = tuple(acc.inames) + tuple(acc.extra)
    s = _all_to_params(project_onto(combined_domain(domains, inames), inames)) if inames \
        else isl.Set.universe(isl.Space.params_alloc(isl.DEFAULT_CONTEXT, 0))
    for c in acc.conditions:
        s = _align_params(s, dependencies(c))
        piece = _condition_set(s.get_space(), c)
        if piece is not None:
            s = s.intersect(piece)
    if assumptions is not None:
        s = s.intersect_params(_param_set_aligned(assumptions, s))
    elems = [f"_tr_e{k}" for k in range(len(shape))]
    s = _align_params(s, elems)
    if acc.index is None:
        for name, size in zip(elems, shape):
            e = aff_from_expr(s.get_space(), p.Variable(name))
            s = s.intersect(e.ge_set(aff_from_expr(s.get_space(), 0)))
            if size is not None:
                s = s.intersect(e.lt_set(aff_from_expr(s.get_space(), size)))
    else:
        for name, expr in zip(elems, acc.index):
            s = _align_params(s, dependencies(expr))
            space = s.get_space()
            s = s.intersect(aff_from_expr(space, p.Variable(name)).eq_set(
                aff_from_expr(space, expr)))
    for n in acc.extra:
        s = s.project_out(dim_type.param, s.find_dim_by_name(dim_type.param, n), 1)
    s = params_to_set_dims(s, list(acc.inames) + elems)
    m = isl.Map.from_range(s).move_dims(dim_type.in_, 0, dim_type.out, 0, len(acc.inames))
    return m.set_tuple_name(dim_type.in_, f"A{key}").set_tuple_name(dim_type.out, "V")


def _schedule_map(access: isl.Map, acc: FlowAccess, width: int) -> isl.Map:
    """{A<key>[inames] -> [schedule vector, zero-padded to `width`]}."""
    dom = access.domain()
    space = dom.get_space()
    pieces = []
    for entry in acc.schedule:
        if isinstance(entry, str):
            pieces.append(aff_from_expr(_named(space, acc.inames), p.Variable(entry)))
        else:
            pieces.append(aff_from_expr(_named(space, acc.inames), entry))
    while len(pieces) < width:
        pieces.append(aff_from_expr(_named(space, acc.inames), 0))
    out = None
    for k, aff in enumerate(pieces):
        m = isl.Map.from_pw_aff(aff)
        out = m if out is None else out.flat_range_product(m)
    out = out.set_tuple_name(dim_type.in_, access.get_tuple_name(dim_type.in_))
    return out.intersect_domain(dom)


def _named(space: isl.Space, names: Sequence[str]) -> isl.Space:
    for k, n in enumerate(names):
        space = space.set_dim_name(dim_type.set, k, n)
    return space


def _before(sched_a: isl.Map, sched_b: isl.Map) -> isl.Map:
    """{a -> b : a runs before b}."""
    return sched_a.lex_lt_map(sched_b)


def _guaranteed(accesses, maps, scheds, g: Guarantee) -> isl.Map:
    """{read -> write instance of g.write that surely ran before it, same element}."""
    same = maps[g.read].apply_range(maps[g.write].reverse())
    earlier = _before(scheds[g.write], scheds[g.read]).reverse()
    rel = same.intersect(earlier)
    rel = _equal_inames(rel, accesses[g.read].inames, accesses[g.write].inames, g.equal)
    return rel


def _killed(accesses, maps, scheds, g: Guarantee, deps: isl.UnionMap) -> isl.UnionMap:
    """Dependences {w -> read} with a sure write of `g` between w and the read."""
    sure = _guaranteed(accesses, maps, scheds, g)              # read -> w2
    out = None
    for w, acc in enumerate(accesses):
        if not acc.is_write:
            continue
        before = _before(scheds[w], scheds[g.write])           # w -> w2
        killed = before.apply_range(sure.reverse())             # w -> read
        u = isl.UnionMap.from_map(killed)
        out = u if out is None else out.union(u)
    return out if out is not None else isl.UnionMap.empty(deps.get_space())


def _equal_inames(rel: isl.Map, in_names, out_names, equal) -> isl.Map:
    for n in equal:
        if n in in_names and n in out_names:
            rel = rel.equate(dim_type.in_, list(in_names).index(n), dim_type.out,
                             list(out_names).index(n))
    return rel


def _restrict(deps: isl.UnionMap, w: isl.Map, r: isl.Map) -> isl.Map | None:
    """The part of `deps` from `w`'s instances to `r`'s, or None if empty."""
    wname, rname = w.get_tuple_name(dim_type.in_), r.get_tuple_name(dim_type.in_)
    pieces = deps.get_map_list()
    for piece in (pieces.get_at(k) for k in range(pieces.n_map())):
        if (piece.get_tuple_name(dim_type.in_) == wname
                and piece.get_tuple_name(dim_type.out) == rname and not piece.is_empty()):
            return piece
    return None


def _cross(accesses, w: int, r: int, dep: isl.Map) -> CrossFlow | None:
    """A pair of `dep` in different work items, or None."""
    wa, ra = accesses[w], accesses[r]
    flat = dep.wrap().flatten()
    names = list(wa.inames) + [_READER + n for n in ra.inames]
    for k, n in enumerate(names):
        flat = flat.set_dim_name(dim_type.set, k, n)
    space = flat.get_space()
    reader_coords = dict(ra.coords)
    for axis, cw in sorted(wa.coords, key=lambda c: (not c[0].startswith("l."), c[0])):
        bad = flat
        if axis in reader_coords:
            cr = _renamed(reader_coords[axis], ra.inames)
            bad = flat.intersect(aff_from_expr(space, cw).ne_set(aff_from_expr(space, cr)))
        if bad.is_empty():
            continue
        values, params = _sample(bad)
        return CrossFlow(r, w, dict(zip(ra.inames, values[len(wa.inames):])),
                         dict(zip(wa.inames, values[:len(wa.inames)])), params, axis)
    return None


def _renamed(expr: Expression, inames: Sequence[str]) -> Expression:
    return substitute(expr, {n: p.Variable(_READER + n) for n in inames})


def _sample(s: isl.Set) -> tuple[list[int], dict[str, int]]:
    """The lexicographically smallest point of `s`, parameters first (small witnesses)."""
    nparams = s.dim(dim_type.param)
    names = [s.get_dim_name(dim_type.param, k) for k in range(nparams)]
    whole = s.move_dims(dim_type.set, 0, dim_type.param, 0, nparams)
    natural = whole
    for k in range(nparams):
        natural = natural.lower_bound_val(dim_type.set, k, isl.Val.zero(s.get_ctx()))
    if not natural.is_empty():
        whole = natural
    try:
        point = whole.lexmin().sample_point()
    except isl.Error:       # unbounded below (a loop bound from a value the region computes)
        point = whole.sample_point()
    values = [int(point.get_coordinate_val(dim_type.set, k).to_python())
              for k in range(whole.dim(dim_type.set))]
    return values[nparams:], dict(zip(names, values[:nparams]))


def varies_with(domains: Sequence[isl.BasicSet], assumptions: isl.BasicSet | None,
                inames: Sequence[str], index: Sequence[Expression], vary: Sequence[str]) -> bool:
    """Whether two instances over `inames` that differ only in the `vary` inames may have
    different values of `index` (affine in `inames` and parameters)."""
    rename = {n: _READER + n for n in vary}
    first = instance_set(domains, inames, assumptions=assumptions)
    second = instance_set(domains, inames, rename=rename, assumptions=assumptions)
    moved = [substitute(e, {n: p.Variable(m) for n, m in rename.items()}) for e in index]
    for k, (a, b) in enumerate(zip(index, moved)):
        for less in ([(a, b)], [(b, a)]):
            if find_conflict(first, second, [], [], less) is not None:
                return True
    return False
