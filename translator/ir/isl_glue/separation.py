"""isl glue: the accesses of one array cut into clusters that touch disjoint elements, so
that a conflict proof over hundreds of accesses asks small questions per cluster instead of
one over all of them (which isl answers pair by pair: quadratic in the accesses).

Accesses ``y[k*n + i]`` (k = 0 .. 399) of one loop lie in the bands ``k*n .. k*n + n - 1``,
one above the other.  Sorted by the element they touch at one sample point, each band is
proved to lie wholly above the cluster below it (one small isl question); a band that is not
joins that cluster.  Clusters lie apart for every parameter value only when every band is
nonempty wherever one is (else ``a < b < c`` does not give ``a < c``): the accesses are of
one instance set (the same loops and conditions), whose footprints are all empty or all
nonempty at each parameter value.

A cluster of one access races only with itself: not where its subscript is ``c*iname +
(parameters)`` (`injective_in`), else where two instances at different values of the iname
give its iname terms one value (asked once per distinct iname terms: 400 statements
``y[k*n + 64*i_outer + i_inner]`` share ``64*i_outer + i_inner``).
"""

from __future__ import annotations

from collections.abc import Sequence

import islpy as isl
import pymbolic.primitives as p

from translator.ir.expr import Expression, typed_key
from translator.ir.isl_glue.core import dim_type, memoized, union_all
from translator.ir.isl_glue.dependences import (access_footprint, find_conflict,
                                                footprints_conflict_free, instance_set)
from translator.ir.polynomials import polynomial

#: A cluster that grows past this many accesses ends the search on that axis: the elements
#: overlap, and checking further bands against a growing union would cost what it saves.
CLUSTER_LIMIT = 32
#: The sample point that orders the bands has every parameter at least this, where the
#: accesses allow it (small values can tie bands apart, ``k*n`` at ``n = 0``).
SAMPLE_FLOOR = 1024
_BELOW = "_tr_below"


def clustered_conflict_free(domains: Sequence[isl.BasicSet], iname: str, accesses: tuple,
                            assumptions: isl.BasicSet | None, shape: object) -> bool:
    """`accesses_conflict_free` (below) of `accesses` of one instance set, cluster by cluster
    (`shape`: their `typed_key`, None where they have none)."""
    prints: dict[int, isl.Set] = {}

    def footprint(k: int) -> isl.Set:
        if k not in prints:
            inames, conditions, index, _ = accesses[k]
            prints[k] = access_footprint(domains, inames, conditions, index, (iname,),
                                         assumptions)
        return prints[k]
    for cluster in _clusters(domains, accesses, assumptions, shape):
        if len(cluster) == 1 and _alone_conflict_free(domains, iname, accesses[cluster[0]],
                                                      assumptions):
            continue
        if not footprints_conflict_free([(footprint(k), accesses[k][3]) for k in cluster],
                                        iname):
            return False
    return True


def _clusters(domains: Sequence[isl.BasicSet], accesses: tuple,
              assumptions: isl.BasicSet | None, shape: object) -> tuple[tuple[int, ...], ...]:
    """`element_clusters` of `accesses`, remembered for every iname of the kernel (the
    footprints they come from keep no iname)."""
    def compute() -> tuple[tuple[int, ...], ...]:
        elements = [f"_tr_e{k}" for k in range(len(accesses[0][2]))]
        bands = [access_footprint(domains, inames, conditions, index, (), assumptions)
                 for inames, conditions, index, _ in accesses]
        return tuple(map(tuple, element_clusters(bands, elements)))
    if shape is None:
        return compute()
    return memoized(("clusters", id(domains), shape, id(assumptions)), (domains, assumptions),
                    compute)


def element_clusters(footprints: Sequence[isl.Set], elements: Sequence[str]
                     ) -> list[list[int]]:
    """`footprints` (``{elements}`` parameter-only sets, see `access_footprint` with no iname
    kept, of accesses with one instance set) as groups of their numbers, ascending: no
    element is touched by accesses of two groups, for any parameter value."""
    groups = [list(range(len(footprints)))]
    for name in elements:
        bands = [_band(fp, elements, name) for fp in footprints]
        point = _sample_params(bands, name)
        if point is None:
            break
        keys = [_sample_element(band, point, name) for band in bands]
        if None in keys:
            break
        groups = [part for group in groups for part in _chain(group, bands, keys, name)]
        if all(len(group) == 1 for group in groups):
            break
    return sorted(groups)


def _band(footprint: isl.Set, elements: Sequence[str], name: str) -> isl.Set:
    """The values of element coordinate `name` that `footprint` touches, over the other
    parameters (the other coordinates projected out)."""
    for other in elements:
        k = footprint.find_dim_by_name(dim_type.param, other)
        if other != name and k >= 0:
            footprint = footprint.project_out(dim_type.param, k, 1)
    return footprint


def _sample_params(bands: Sequence[isl.Set], name: str) -> dict[str, int] | None:
    """Values of every parameter but `name` where the first band is nonempty (all are there),
    each at least `SAMPLE_FLOOR` where that is possible; None where the band is empty."""
    first = bands[0]
    for band in bands[1:]:
        first = first.align_params(band.get_space())
    params = [n for n in first.get_var_names(dim_type.param) if n != name]
    space = first.get_space()
    high = first
    for n in params:
        high = high.add_constraint(isl.Constraint.ineq_from_names(space, {n: 1,
                                                                         1: -SAMPLE_FLOOR}))
    found = high if not high.is_empty() else first
    if found.is_empty():
        return None
    point = found.sample_point()
    return {n: int(point.get_coordinate_val(dim_type.param, found.find_dim_by_name(
        dim_type.param, n)).to_python()) for n in params}


def _sample_element(band: isl.Set, point: dict[str, int], name: str) -> int | None:
    """The least value of `name` in `band` at `point` (None where there is none)."""
    s = band
    for n, v in point.items():
        k = s.find_dim_by_name(dim_type.param, n)
        if k >= 0:
            s = s.fix_val(dim_type.param, k, isl.Val.int_from_si(s.get_ctx(), v))
    k = s.find_dim_by_name(dim_type.param, name)
    if k < 0 or s.is_empty():
        return None
    low = s.move_dims(dim_type.set, 0, dim_type.param, k, 1).lexmin()
    return int(low.sample_point().get_coordinate_val(dim_type.set, 0).to_python())


def _chain(group: list[int], bands: Sequence[isl.Set], keys: Sequence[int],
           name: str) -> list[list[int]]:
    """`group` cut into clusters, each wholly below the next on `name` (a stack: a band not
    proved above the top cluster joins it, and the cluster below is asked again)."""
    stack: list[tuple[list[int], isl.Set]] = []
    for k in sorted(group, key=lambda k: (keys[k], k)):
        members, joined = [k], bands[k]
        while stack and not _below(stack[-1][1], bands[k], name):
            lower, lower_set = stack.pop()
            members = lower + members
            joined = union_all([lower_set, joined], coalesce=False)
            if len(members) > CLUSTER_LIMIT:
                return [group]
        stack.append((members, joined))
    return [sorted(members) for members, _ in stack]


def _below(lower: isl.Set, upper: isl.Set, name: str) -> bool:
    """Whether every value of `name` in `lower` is less than every value in `upper`."""
    renamed = lower.set_dim_name(dim_type.param, lower.find_dim_by_name(dim_type.param, name),
                                 _BELOW)
    both = renamed.align_params(upper.get_space())
    both = both.intersect(upper.align_params(both.get_space()))
    at_or_above = isl.Constraint.ineq_from_names(both.get_space(), {_BELOW: 1, name: -1})
    return both.add_constraint(at_or_above).is_empty()


def injective_in(index: Sequence[Expression], iname: str, inames: Sequence[str]) -> bool:
    """Whether two instances at different values of `iname` never touch one element through
    `index`: some subscript is ``c*iname + (parameters)`` with an integer c != 0 and no other
    of `inames` (a cluster of one such access needs no isl question)."""
    others = set(inames) - {iname}
    for expr in index:
        poly = polynomial(expr)
        if poly is None or any(v in others for mono in poly for v in mono):
            continue
        if poly.get((iname,)) and all(mono == (iname,) for mono in poly if iname in mono):
            return True
    return False


def _alone_conflict_free(domains: Sequence[isl.BasicSet], iname: str, access: tuple,
                         assumptions: isl.BasicSet | None) -> bool:
    """Whether `access`, alone in its cluster, is proved never to touch one element at two
    values of `iname` without its footprint (False: not proved this way)."""
    inames, conditions, index, is_write = access
    if not is_write or injective_in(index, iname, inames):
        return True
    terms = tuple(_iname_terms(e, inames) for e in index)
    if None in terms:
        return False
    try:
        key = ("alone", id(domains), iname, inames, typed_key(conditions), terms,
               id(assumptions))
    except TypeError:   # an unhashable condition
        return False
    return memoized(key, (domains, assumptions), lambda: _terms_apart(
        domains, iname, inames, conditions, terms, assumptions))


def _iname_terms(expr: Expression, inames: Sequence[str]) -> tuple | None:
    """The terms of `expr` in `inames` as ``((iname, integer coefficient), ...)``, where the
    rest names no iname (None where `expr` is no such polynomial)."""
    poly = polynomial(expr)
    if poly is None:
        return None
    terms = {}
    for mono, coeff in poly.items():
        named = [v for v in mono if v in inames]
        if named and (len(mono) != 1):
            return None
        if named:
            terms[mono[0]] = coeff
    return tuple(sorted(terms.items()))


def _terms_apart(domains: Sequence[isl.BasicSet], iname: str, inames: Sequence[str],
                 conditions: Sequence[Expression], terms: tuple,
                 assumptions: isl.BasicSet | None) -> bool:
    """Whether two instances at different values of `iname` never give every subscript's
    iname `terms` one value (then the subscripts, which add the same parameters, differ)."""
    rename = {n: f"_tr_alone_{n}" for n in inames}
    first = instance_set(domains, inames, conditions, assumptions=assumptions)
    second = instance_set(domains, inames, conditions, rename, assumptions)
    equalities = [(_sum(axis, {}), _sum(axis, rename)) for axis in terms]
    return find_conflict(first, second, equalities, [(iname, rename[iname])]) is None


def _sum(terms: tuple, rename: dict[str, str]) -> Expression:
    return p.Sum(tuple(p.Product((c, p.Variable(rename.get(n, n)))) for n, c in terms)) \
        if terms else 0


def accesses_conflict_free(domains: Sequence[isl.BasicSet], iname: str,
                           accesses: Sequence[tuple[Sequence[str], Sequence[Expression],
                                                    Sequence[Expression], bool]],
                           assumptions: isl.BasicSet | None = None) -> bool:
    """Whether no write among `accesses` ``(inames, conditions, index, is_write)`` touches an
    element that one of them touches at another value of `iname` (True: proved).

    Every access runs inside the loop over `iname`, and all subscript one array the same way.
    One isl question for the whole group (the union of the writes' footprints against the
    union of all footprints) instead of one per pair: a region of hundreds of statements on
    one array asks it once."""
    accesses = tuple((tuple(inames), tuple(conditions), tuple(index), bool(is_write))
                     for inames, conditions, index, is_write in accesses)
    try:
        shape = typed_key(accesses)
    except TypeError:   # an unhashable condition: compute, do not remember
        return _accesses_conflict_free(domains, iname, accesses, assumptions)
    return memoized(("conflict-free", id(domains), iname, shape, id(assumptions)),
                    (domains, assumptions),
                    lambda: _accesses_conflict_free(domains, iname, accesses, assumptions,
                                                    shape))


def _accesses_conflict_free(domains: Sequence[isl.BasicSet], iname: str, accesses: tuple,
                            assumptions: isl.BasicSet | None, shape: object = None) -> bool:
    """`accesses_conflict_free`; `shape` is `typed_key` of `accesses` (None: not hashable).
    Many accesses of one instance set are proved cluster by cluster (`separation`)."""
    if not any(is_write for *_, is_write in accesses):
        return True
    if len(accesses) >= CLUSTER_FROM and _one_instance_set(accesses):
        return clustered_conflict_free(domains, iname, accesses, assumptions, shape)
    return footprints_conflict_free(
        [(access_footprint(domains, inames, conditions, index, (iname,), assumptions), is_write)
         for inames, conditions, index, is_write in accesses], iname)


#: Accesses are cut into clusters of disjoint elements (`element_clusters`) from this many on.
CLUSTER_FROM = 8


def _one_instance_set(accesses: tuple) -> bool:
    """Whether all `accesses` run over the same loops under the same conditions."""
    try:
        return len({(inames, typed_key(conditions)) for inames, conditions, *_ in accesses}) == 1
    except TypeError:   # an unhashable condition
        return False
