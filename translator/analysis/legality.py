"""Legality of every parallel mapping: proved, or refused with a witness.

Two statement instances run in different work items (or ILP/vector lanes) when they differ in
a parallel iname.  A mapping of iname ``p`` is legal when no two such instances touch the same
element of a shared variable with at least one write.  The conflict search is exact for
quasi-affine subscripts (isl); a non-affine subscript is "unknown" and refused unless the
region asserts ``independent("p")``.

Private temporaries are not shared, but each work item has its own copy: a mapping is also
refused when a read of one may get its value from another work item's write
(`translator.analysis.private_flow`, checked first).

Synchronisation the generated code provides: work items of one group see each other's local
memory across a barrier, and the code generator puts a barrier between two statements that
communicate through local memory.  Each group has its own local memory.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable

import numpy as np
import pymbolic.primitives as p
from pymbolic import evaluate
from pymbolic.mapper.evaluator import UnknownVariableError

from translator.analysis.access import Access, kernel_accesses, shared_variables
from translator.analysis.atomics import atomic_only, check_atomic_forms
from translator.analysis.access import element_text as _element
from translator.analysis.bounds import (Spill, address_spill, linear_address, row_hint,
                                        same_elements_key, stride_names)
from translator.analysis.private_flow import check_private_temporaries
from translator.diagnostics import LegalityError, Note, TranslatorError
from translator.ir.expr import Expression, dependencies, substitute, typed_key
from translator.ir.data import AddressSpace, ArrayArg
from translator.ir.isl_glue import (accesses_conflict_free, find_conflict, forces_equal,
                                    hardware_range, hardware_span, iname_offset, inames_of,
                                    instance_set, statement_domain)
from translator.ir.kernel import Kernel
from translator.ir.parse_expr import parse_expression
from translator.ir.mappers import nodes_of, reduction_inames
from translator.ir.tags import (GroupTag, IlpUnrollTag, InameTag, LocalAutoTag, LocalTag,
                                UnrollTag, VectorizeTag, is_hardware_parallel)
from translator.ir.util import FrozenDict
from translator.records import dataclass

_PARALLEL = (LocalTag, GroupTag, LocalAutoTag, IlpUnrollTag, VectorizeTag)
_SECOND = "_tr_w2_"


def parallel_inames(kernel: Kernel) -> dict[str, InameTag]:
    """Inames whose iterations may run concurrently, with their tag, sorted by name."""
    out = {}
    for iname in sorted(kernel.iname_tags):
        for tag in kernel.iname_tags[iname]:
            if isinstance(tag, _PARALLEL):
                out[iname] = tag
    return out


def asserted_independent(kernel: Kernel) -> frozenset[str]:
    return frozenset(kernel.options.extra.get("independent", ()))


def check_kernel(kernel: Kernel) -> Kernel:
    """Raise `LegalityError` for the first parallel iname whose mapping races, or the first
    loop interchange that reverses a dependence; else return `kernel` unchanged."""
    if kernel.options.trust_mappings:
        return kernel
    check_interchanges(kernel)
    check_unrolled_reorderings(kernel)
    check_reduction_reorderings(kernel)
    return check_mappings(kernel)


#: Kernels `check_mappings` passed lately (held, so compared by identity): the automatic
#: mapper proves the kernel that the legality stage then checks again, the same object.
_PROVED: list[Kernel] = []


def check_mappings(kernel: Kernel) -> Kernel:
    """Raise `LegalityError` for the first parallel iname whose mapping races; else return
    `kernel` unchanged."""
    if any(kernel is k for k in _PROVED):
        return kernel
    _check_mappings(kernel)
    _remember_proved(kernel)
    return kernel


def _remember_proved(kernel: Kernel) -> None:
    _PROVED.insert(0, kernel)
    del _PROVED[4:]


def proved_lately(kernel: Kernel) -> bool:
    """Whether `check_mappings` passed `kernel` itself lately (`_PROVED`)."""
    return any(kernel is k for k in _PROVED)


def remember_proved(kernel: Kernel) -> None:
    """Take `kernel` as passed by `check_mappings`: the caller holds a kernel that passed and
    differs from `kernel` in its name and source spans only, which no proof reads
    (`translator.automap`'s mappings remembered by shape)."""
    _remember_proved(kernel)


#: Loops proved parallel alone (`prove_alone`) in the kernels seen lately, by kernel
#: identity (held, so an id is never reused): the automatic mapper proves the loops of a band
#: one by one, then splits them onto the hardware (`check_split_band`).
_ALONE: list[tuple[Kernel, set[str]]] = []


def prove_alone(kernel: Kernel, iname: str) -> None:
    """Raise `LegalityError` unless the loop over `iname` alone on group axis 0 (every other
    tag dropped) is race-free in `kernel`; a proof is remembered for `check_split_band`."""
    check_mappings(kernel.copy(iname_tags=FrozenDict({iname: frozenset([GroupTag(0)])})))
    for held, proved in _ALONE:
        if held is kernel:
            proved.add(iname)
            return
    _ALONE.insert(0, (kernel, {iname}))
    del _ALONE[4:]


def check_split_band(kernel: Kernel, mapped: Kernel, loops: Iterable[str]) -> Kernel:
    """`check_mappings(mapped)` where `mapped` is the unmapped `kernel` with each of `loops`
    split (`split_iname`, no ``within``, no slabs) or tagged onto hardware axes and nothing
    else changed, sharing the proofs `prove_alone` made in `kernel`.

    Two work items of `mapped` differ in a parallel iname, so (a split is a bijection of the
    loop's values) in the value of one of `loops`; `prove_alone` showed that no two instances
    differing in that loop touch one shared element with a write, whatever the other inames.
    That holds when every statement runs inside every loop of `loops` (no instance is run by
    all work items or by the first one only), nothing is asserted independent and no
    variable is in local memory (barriers order a group's accesses to it per tag).  The
    checks that do not compare accesses (two loops on one axis, private temporaries) run on
    `mapped` as in `check_mappings`.  Any other case is checked in full."""
    loops = set(loops)
    if any(mapped is k for k in _PROVED):
        return mapped
    if not _band_shares_proofs(kernel, mapped, loops):
        return check_mappings(mapped)
    hardware = parallel_inames(mapped)
    _check_shared_axes(mapped, hardware)
    check_private_temporaries(mapped, frozenset())
    _remember_proved(mapped)
    return mapped


def _band_shares_proofs(kernel: Kernel, mapped: Kernel, loops: set[str]) -> bool:
    """The conditions of `check_split_band` under which `mapped` needs no access proof."""
    proved = next((names for held, names in _ALONE if held is kernel), set())
    if not loops or not loops <= proved or parallel_inames(kernel) \
            or asserted_independent(kernel) or asserted_independent(mapped) \
            or "local" in shared_variables(mapped).values():
        return False
    before, after = kernel.all_inames, mapped.all_inames
    removed, added = before - after, after - before
    hardware = set(parallel_inames(mapped))
    if not removed <= loops or not hardware <= added | loops:
        return False
    if len(kernel.statements) != len(mapped.statements):
        return False
    for before, after in zip(kernel.statements, mapped.statements):
        if before.id != after.id or not loops <= before.within_inames \
                or not hardware <= after.within_inames \
                or after.within_inames - added != before.within_inames - removed:
            return False
    return True


def _check_mappings(kernel: Kernel) -> None:
    check_atomic_forms(kernel)
    mapped = parallel_inames(kernel)
    if not mapped:
        return
    _check_shared_axes(kernel, mapped)
    trusted = asserted_independent(kernel)
    if not set(mapped) <= trusted:
        check_private_temporaries(kernel, trusted)
    accesses = kernel_accesses(kernel)
    # an array every access to which is an atomic update with one operator: its updates
    # commute, so two work items may update one element (`translator.analysis.atomics`)
    atomic = atomic_only(kernel)
    if atomic:
        accesses = [a for a in accesses if a.variable not in atomic]
    kinds = shared_variables(kernel)
    aliases = {a.name: a.may_alias for a in kernel.array_args}
    for iname, tag in mapped.items():
        if iname in trusted:
            continue
        classes = _proved_classes(kernel, iname, accesses)
        for a, b in _conflicting_pairs(accesses, aliases, classes):
            if not _synchronised(kinds[a.variable], tag, a, b):
                _check_pair(kernel, iname, tag, a, b)


#: A variable's accesses are proved together (`_group_conflict_free`) from this many on:
#: fewer pairs are cheaper one by one (and most are decided without isl).
GROUP_PROOF_FROM = 8


def _proved_classes(kernel: Kernel, iname: str, accesses: list[Access]) -> list[int | None]:
    """Per access, the number of a group it belongs to whose accesses are proved pairwise
    conflict-free when `iname` is mapped (None: not in such a group).  The pairs of one
    group need no check of their own: a region of hundreds of statements on one array costs
    one proof per group, not one per pair.  When a group is not proved, its pairs are
    checked one by one, in order, so the error is that of the first pair that races."""
    classes: list[int | None] = [None] * len(accesses)
    for number, members in enumerate(_large_groups(kernel, accesses, iname).values()):
        if _group_conflict_free(kernel, iname, [accesses[k] for k in members]):
            for k in members:
                classes[k] = number
    return classes


def _group(acc: Access, iname: str) -> tuple | None:
    """Accesses that one proof can clear together: inside the loop over `iname`, with exact
    subscripts, grouped by variable and subscript layout; None for any other."""
    if iname not in acc.inames or acc.index is None:
        return None
    return (acc.variable, acc.layout, len(acc.index))


def _large_groups(kernel: Kernel, accesses: list[Access], iname: str
                  ) -> dict[tuple, list[int]]:
    """The groups (`_group`) of at least `GROUP_PROOF_FROM` accesses, as access numbers,
    without the accesses that leave their extent (`address_spill`: such an access names
    another row's element, which comparing subscripts axis by axis would miss)."""
    groups: dict[tuple, list[int]] = {}
    for k, acc in enumerate(accesses):
        key = _group(acc, iname)
        if key is not None:
            groups.setdefault(key, []).append(k)
    spills: dict[tuple, bool] = {}

    def inside(acc: Access) -> bool:
        key = same_elements_key(acc)   # accesses of many statements share one answer
        try:
            if key not in spills:
                spills[key] = address_spill(kernel, acc) is None
            return spills[key]
        except TypeError:   # an unhashable condition
            return address_spill(kernel, acc) is None
    kept = {key: [k for k in group if inside(accesses[k])]
            for key, group in groups.items() if len(group) >= GROUP_PROOF_FROM}
    return {key: g for key, g in kept.items() if len(g) >= GROUP_PROOF_FROM}


def _group_conflict_free(kernel: Kernel, iname: str, group: list[Access]) -> bool:
    """Whether no write of `group` touches an element another instance of the group touches
    at another value of `iname`: bucket by bucket (`_disjoint_buckets`), each decided
    without isl where the subscripts fix `iname` (`_fixes_iname`), else by one isl
    question over its distinct accesses."""
    for bucket in _disjoint_buckets(group):
        if not any(a.is_write for a in bucket) or _fixes_iname(bucket, iname):
            continue
        # an axis with one constant throughout the bucket compares equal anyway: without
        # it, buckets that differ in that constant only ask isl the same (remembered) question
        axes = [d for d in range(len(bucket[0].index))
                if len({_integer(a.index[d]) for a in bucket}) != 1
                or _integer(bucket[0].index[d]) is None]
        if not accesses_conflict_free(kernel.domains, iname, _distinct(bucket, axes),
                                      kernel.assumptions):
            return False
    return True


def _distinct(bucket: list[Access], axes: list[int]) -> list[tuple]:
    """`bucket`'s accesses as ``(inames, conditions, index on axes, is_write)``, one per
    distinct first three (a write where any of them writes): keyed by `typed_key`, since
    pymbolic's equality takes ``i < 1`` and ``i < 1.0`` for one condition."""
    distinct: dict[object, tuple] = {}
    for k, a in enumerate(bucket):
        found = (a.inames, a.conditions, tuple(a.index[d] for d in axes))
        try:
            key: object = (a.inames, typed_key(a.conditions),
                           tuple(typed_key(a.index[d]) for d in axes))
        except TypeError:   # an unhashable condition: kept on its own
            key = ("access", k)
        held = distinct.get(key)
        distinct[key] = (*found, a.is_write or (held is not None and held[3]))
    return list(distinct.values())


def _disjoint_buckets(group: list[Access]) -> list[list[Access]]:
    """`group` cut into buckets whose accesses touch disjoint elements: on an axis where
    every subscript is an integer constant (``a(i, 3)``), different constants name
    different elements (`_group` keeps only subscripts inside their extents)."""
    for axis in range(len(group[0].index)):
        values = [_integer(a.index[axis]) for a in group]
        if None in values or len(set(values)) == 1:
            continue
        buckets: dict[int, list[Access]] = {}
        for a, v in zip(group, values):
            buckets.setdefault(v, []).append(a)
        return [part for bucket in buckets.values() for part in _disjoint_buckets(bucket)]
    return [group]


def _integer(expr: Expression) -> int | None:
    if isinstance(expr, (int, np.integer)) and not isinstance(expr, bool):
        return int(expr)
    return None


def _fixes_iname(bucket: list[Access], iname: str) -> bool:
    """Whether on some axis every subscript of `bucket` is ``iname + c`` with one c: then
    two instances touching one element have one value of `iname`."""
    return any(len({iname_offset(a.index[axis], iname) for a in bucket} - {None}) == 1
               and all(iname_offset(a.index[axis], iname) is not None for a in bucket)
               for axis in range(len(bucket[0].index)))


def _check_shared_axes(kernel: Kernel, mapped: dict[str, InameTag]) -> None:
    """Two nested loops on one hardware axis (`g.1` twice) would get one work-item
    coordinate for two loop indices: refused, at the first statement inside both."""
    axes = {n: t for n, t in mapped.items() if isinstance(t, (GroupTag, LocalTag))}
    for stmt in kernel.statements:
        seen: dict[str, str] = {}
        for n in sorted(stmt.within_inames & set(axes)):
            other = seen.setdefault(str(axes[n]), n)
            if other != n:
                raise LegalityError(
                    f"loops {other} and {n} are both mapped to {axes[n]}, and statement "
                    f"{stmt.id} runs inside both: nested loops need different hardware axes",
                    stmt.span, detail=f"  map one of {other} and {n} to another axis")


def _conflicting_pairs(accesses: list[Access], aliases: dict[str, frozenset[str]],
                       classes: list[int | None] | None = None
                       ) -> Iterable[tuple[Access, Access]]:
    """Pairs on one variable, or on two that may alias, with at least one write (write first);
    each unordered pair once, an access with itself included (different instances of one
    statement); in order of the first access, then of the second.  Pairs of two accesses of
    one class (`_proved_classes`) are left out."""
    # only accesses to the same or an aliasing variable, one of them a write, can conflict:
    # index them by variable so that the search is not quadratic in the region's size, and
    # by class so that a proved group's own pairs are never enumerated
    every: dict[str, list[int]] = {}
    writes: dict[str, list[int]] = {}
    for k, a in enumerate(accesses):
        every.setdefault(a.variable, []).append(k)
        if a.is_write:
            writes.setdefault(a.variable, []).append(k)
    classes = classes or [None] * len(accesses)
    outside: dict[tuple[str, bool, int | None], list[int]] = {}

    def partners(name: str, write: bool, cls: int | None) -> list[int]:
        key = (name, write, cls)
        if key not in outside:
            found = (every if write else writes).get(name, ())
            outside[key] = [j for j in found if cls is None or classes[j] != cls]
        return outside[key]

    for k, a in enumerate(accesses):
        names = {a.variable, *aliases.get(a.variable, ())}
        found: list[int] = []
        for n in names:
            listed = partners(n, a.is_write, classes[k])
            found += listed[bisect_left(listed, k):]
        for j in sorted(found):
            b = accesses[j]
            yield (a, b) if a.is_write else (b, a)


def _synchronised(kind: str, tag: InameTag, a: Access, b: Access) -> bool:
    if kind != "local":
        return False
    # each group has its own local memory; barriers order different statements of a group
    return isinstance(tag, GroupTag) or a.statement != b.statement


def _instances(kernel: Kernel, acc: Access, iname: str, tag: InameTag
               ) -> tuple[tuple[str, ...], tuple[Expression, ...]]:
    """The inames an access's instances range over when `iname` is mapped to `tag`, and the
    conditions that place them on the work item they run in along that axis:

    - inside the loop over `iname`: its own value;
    - a reduction over `iname`: the result is written once (`iname` is not added);
    - outside the loop over an ILP or vector iname: lanes belong to one work item, so the
      statement runs once for all of them (`iname` is not added);
    - another iname on the same hardware axis: the same work-item coordinate;
    - a statement writing global memory outside every loop on that axis: the first work item
      only (the code generator guards it so);
    - otherwise every work item runs it: any value of the axis (`iname`'s whole range).

    The added `iname` takes its value from these conditions only, never from its loop's
    domain: where that loop's bounds name a loop the statement is in (``for (k = 4*j; ...)``),
    the work item runs the statement for every value of that loop, not only where the two
    agree.
    """
    if iname in acc.inames:
        return acc.inames, ()
    stmt = kernel.statement(acc.statement)
    if iname in reduction_inames(stmt) or isinstance(tag, (IlpUnrollTag, VectorizeTag)):
        return acc.inames, ()
    inames = tuple(sorted(set(acc.inames) | {iname}))
    base = _lowest(kernel, iname)
    for q in acc.inames:
        if any(type(t) is type(tag) and getattr(t, "axis", None) == getattr(tag, "axis", -1)
               for t in kernel.tags_of(q)):
            shift = p.Variable(q) - _lowest(kernel, q)
            return inames, (p.Comparison(p.Variable(iname) - base, "==", shift),)
    if isinstance(tag, (LocalTag, GroupTag)) and any(
            isinstance(kernel.arg(n), ArrayArg) for n in stmt.assignee_names()):
        return inames, (p.Comparison(p.Variable(iname), "==", base),)
    count = hardware_range(statement_domain(kernel.domains, [iname]), iname)[1]
    return inames, (p.Comparison(p.Variable(iname), ">=", base),
                    p.Comparison(p.Variable(iname), "<", base + count))


def _lowest(kernel: Kernel, iname: str) -> Expression:
    return hardware_span(statement_domain(kernel.domains, [iname]), iname)[0]


@dataclass(frozen=True)
class _Pair:
    """Two accesses' instances as isl sets over one parameter space (the second's inames
    renamed), and the equalities saying they touch the same element (none when that cannot be
    told exactly: then any two instances may touch the same element)."""

    first: object
    second: object
    rename: dict[str, str]
    equalities: list
    exact: bool
    #: where a subscript leaves its extent (`translator.analysis.bounds`): the equality then
    #: compares linear addresses, or there is none when those are not affine
    spill: Spill | None = None


def _pair(kernel: Kernel, a: Access, b: Access, inames_a=None, inames_b=None,
          where_a: tuple = (), where_b: tuple = ()) -> _Pair:
    inames_a = a.inames if inames_a is None else inames_a
    inames_b = b.inames if inames_b is None else inames_b
    rename = {n: _SECOND + n for n in inames_b}
    # an iname `_instances` added is constrained by `where` only (see there)
    first = instance_set(kernel.domains, [n for n in inames_a if n in a.inames],
                         a.conditions + where_a, assumptions=kernel.assumptions)
    second = instance_set(kernel.domains, [n for n in inames_b if n in b.inames],
                          b.conditions + where_b, rename={**rename},
                          assumptions=kernel.assumptions)
    exact = a.variable == b.variable and a.index is not None and b.index is not None \
        and a.layout == b.layout and len(a.index) == len(b.index)
    equalities: list = []
    spill = _pair_spill(kernel, a, b) if exact else None
    second_names = {n: p.Variable(m) for n, m in rename.items()}
    if exact and spill is None:
        equalities = [(i, substitute(j, second_names)) for i, j in zip(a.index, b.index)]
    elif exact:
        flat_a, flat_b = linear_address(kernel, a), linear_address(kernel, b)
        exact = flat_a is not None and flat_b is not None
        if exact:
            equalities = [(flat_a, substitute(flat_b, second_names))]
    return _Pair(first, second, rename, equalities, exact, spill)


def _pair_spill(kernel: Kernel, a: Access, b: Access) -> Spill | None:
    """Where `a` or `b` leaves the extent of an axis that addresses elements (then
    comparing subscripts axis by axis would miss that one names another's element)."""
    return address_spill(kernel, a) or address_spill(kernel, b)


def _check_pair(kernel: Kernel, iname: str, tag: InameTag, a: Access, b: Access) -> None:
    inames_a, where_a = _instances(kernel, a, iname, tag)
    inames_b, where_b = _instances(kernel, b, iname, tag)
    if iname in inames_a and iname in inames_b and _same_iteration(a, b, iname, inames_b) \
            and _pair_spill(kernel, a, b) is None:
        return   # the element fixes the iteration: no set needs to be built
    pair = _pair(kernel, a, b, inames_a, inames_b, where_a, where_b)
    first, second, rename = pair.first, pair.second, pair.rename
    equalities, exact = pair.equalities, pair.exact
    differ = [(iname, rename[iname])] if iname in inames_a and iname in inames_b else []
    if not differ:
        return  # one side is written once for every iteration of iname (a reduction's result,
        # or a statement outside an ILP/vector loop): ordered with them in one work item
    witness = find_conflict(first, second, equalities, differ)
    if witness is None:
        return
    if pair.spill is not None and not exact:
        concrete = _spill_witness(kernel, pair, a, b, differ)
        if concrete is not None:
            witness, exact = concrete, True
    raise _race_error(kernel, iname, tag, a, b, witness, rename, exact, pair.spill)


def _spill_witness(kernel: Kernel, pair: _Pair, a: Access, b: Access,
                   differ: list) -> dict[str, int] | None:
    """Two instances that touch one address when the parameters in the strides take their
    values at the spill point (then the linear addresses are affine): a concrete race to
    show.  None when there is none for those values (the refusal stays "may race")."""
    in_strides = stride_names(kernel, a.variable)
    values = {n: v for n, v in pair.spill.point.items() if n in in_strides}
    flat_a, flat_b = linear_address(kernel, a, values), linear_address(kernel, b, values)
    if flat_a is None or flat_b is None:
        return None
    fixed = [(p.Variable(n), v) for n, v in sorted(values.items())]
    second = substitute(flat_b, {n: p.Variable(m) for n, m in pair.rename.items()})
    return find_conflict(pair.first, pair.second, [(flat_a, second), *fixed], differ)


def _same_iteration(a: Access, b: Access, iname: str, inames_b: Iterable[str]) -> bool:
    """Whether touching one element forces one value of `iname` (``x(i + c)`` against
    ``x(i' + c)``): the answer `find_conflict` would give first, before any isl work."""
    if a.variable != b.variable or a.index is None or b.index is None \
            or a.layout != b.layout or len(a.index) != len(b.index):
        return False
    rename = {n: p.Variable(_SECOND + n) for n in inames_b}
    equalities = [(i, substitute(j, rename)) for i, j in zip(a.index, b.index)]
    return forces_equal(equalities, iname, _SECOND + iname)


def _race_error(kernel: Kernel, iname: str, tag: InameTag, a: Access, b: Access,
                witness: dict[str, int], rename: dict[str, str], exact: bool,
                spill: Spill | None = None) -> LegalityError:
    va = {n: witness[n] for n in a.inames if n in witness}
    vb = {n: witness[rename[n]] for n in b.inames if rename[n] in witness}
    va.setdefault(iname, witness[iname])
    vb.setdefault(iname, witness[rename[iname]])
    params = {n: v for n, v in witness.items() if not n.startswith(_SECOND) and n not in va}
    elem_a = _element(a, {**params, **va})
    elem_b = _element(b, {**params, **vb})
    where_b = f" ({b.span.file}:{b.span.line})" if b.span is not None else ""
    if spill is not None:
        kind = _spill_kind(spill, exact)
    elif exact:
        kind = "races"
    elif a.variable != b.variable:
        kind = (f"may race ({a.variable} and {b.variable} are pointers that may overlap; "
                f"declare them restrict or add noalias(\"{a.variable}\", \"{b.variable}\"))")
    else:
        kind = ("may race (a subscript is not affine, so the translator cannot tell which "
                "elements it touches)")
    msg = (f"mapping {iname} to {tag} {kind}: iteration {_source_point(kernel, va, params)} "
           f"{a.verb} {elem_a}, iteration {_source_point(kernel, vb, params)} {b.verb} "
           f"{elem_b}{where_b}")
    notes = []
    if b.span is not None and (a.span is None or b.span != a.span):
        notes.append(Note(f"the other access ({b.verb} {b.variable}) is here", b.span))
    detail = _advice(kernel, iname, a, b, exact, params, spill)
    return LegalityError(msg, a.span, notes=tuple(notes), detail=detail)


def _spill_kind(spill: Spill, exact: bool) -> str:
    """The verdict when a subscript leaves its extent: the access names another row's (or
    column's) element, so elements are compared by linear address."""
    if exact:
        return f"races ({spill.text()}, so elements are compared by linear address)"
    return (f"may race ({spill.text()}, the memory of another row or column; its linear "
            "address is not affine, so the translator cannot tell which element it touches)")


def _point(values: dict[str, int]) -> str:
    return ", ".join(f"{n}={v}" for n, v in sorted(values.items())) or "(all)"


def _source_point(kernel: Kernel, values: dict[str, int], params: dict[str, int]) -> str:
    """`_point` of iname `values` as the source's loop variables take them: the iname of a
    loop that counts down or by steps is a 0-based trip counter named after the variable,
    whose value the frontend gives as text (``"iname_values"``: ``i = n - 1 - i`` for ``for
    (i = n - 1; i >= 1; i--)``); an iname it does not give (or one it cannot evaluate) as it is."""
    shown = dict(values)
    for iname, value in kernel.options.extra.get("iname_values", ()):
        if iname in values:
            try:
                shown[iname] = int(evaluate(parse_expression(value), {**params, **values}))
            except (UnknownVariableError, TypeError, ValueError, TranslatorError):
                pass
    return _point(shown)


def _advice(kernel: Kernel, iname: str, a: Access, b: Access, exact: bool,
            params: dict[str, int], spill: Spill | None = None) -> str:
    lines = []
    #: written scalars the frontend keeps as one variable, with the reason (not private)
    shared = dict(kernel.options.extra.get("shared_scalars", ()))
    # temporaries bounding data-dependent loops are values per iteration, not parameters
    params = {n: v for n, v in params.items() if n not in kernel.temporaries}
    # nor are the smallest and largest elements of index tables (scanned at the call)
    params = {n: v for n, v in params.items() if not n.startswith(("_tr_min_", "_tr_max_"))}
    if params:
        lines.append("  for example when " + ", ".join(f"{n}={v}" for n, v in sorted(params.items())))
    if a.variable != b.variable:
        pass  # the message already says how to declare the pointers disjoint
    elif spill is not None:
        lines.append(f"  keep the loop over {iname} sequential (remove its l./g./ilp/vec tag), "
                     "or keep every subscript inside its declared extent")
    elif not exact:
        rows = row_hint(kernel, a) or row_hint(kernel, b)
        lines += [rows] if rows else []
        if _scatter(kernel, a) and _scatter(kernel, b):
            lines.append(f"  {a.variable} is written through an index table (a scatter): "
                         "where several iterations may update one element, mark the update "
                         "atomic ('!$omp atomic update', '!$acc atomic update', "
                         "'#pragma omp atomic', or the translator's 'atomic')")
        elif a.statement == b.statement and a.is_write and b.is_write \
                and _updates_in_place(kernel, a.statement):
            lines.append("  if several iterations may update one element (a histogram, a "
                         "scatter-add), make the update atomic")
        lines.append(_independent_hint(kernel, iname))
    elif a.statement == b.statement and a.is_write and iname not in a.inames:
        lines.append(f"  statement {a.statement} is not inside the loop over {iname}, so every "
                     "work item runs it")
    elif a.variable in shared:
        lines.append(f"  {a.variable} is one variable for every iteration of {iname}, not a "
                     f"copy per work item: {shared[a.variable]}")
    elif a.statement == b.statement and a.is_write and b.is_write:
        lines.append(f"  different iterations of {iname} write the same element; a reduction "
                     "needs the accumulator to be read only as its accumulator inside the loop")
    else:
        lines.append(f"  the loop over {iname} carries a dependence; keep it sequential "
                     "(remove its l./g./ilp/vec tag)")
    return "\n".join(lines)


def _scatter(kernel: Kernel, acc: Access) -> bool:
    """Whether `acc` is a write whose subscript reads an array (``r[conn[n, e]]``)."""
    if not acc.is_write:
        return False
    stmt = kernel.id_to_statement.get(acc.statement)
    target = getattr(stmt, "assignee", None)
    return isinstance(target, p.Subscript) and any(
        isinstance(e, p.Subscript) for i in target.index_tuple for e in _subexpressions(i))


def _subexpressions(expr: Expression):
    yield expr
    for child in getattr(expr, "children", ()) or ():
        yield from _subexpressions(child)
    if isinstance(expr, p.Subscript):
        yield from _subexpressions(expr.index)


def _updates_in_place(kernel: Kernel, sid: str) -> bool:
    """Whether statement `sid` reads the element it writes (``h(k(i)) = h(k(i)) + 1``)."""
    stmt = kernel.statement(sid)
    target = getattr(stmt, "assignee", None)
    expression = getattr(stmt, "expression", None)
    if target is None or expression is None:
        return False
    return any(n == target for n in nodes_of(expression, type(target)))


def _names_iname(kernel: Kernel, name: str) -> bool:
    """Whether `name` is an iname or was split into inames (``name_outer``...)."""
    return name in kernel.all_inames or any(n.startswith(name + "_")
                                            for n in kernel.all_inames)


def _independent_hint(kernel: Kernel, iname: str) -> str:
    """How to assert independence: on the loop the user wrote, before the split that made
    `iname` (an assertion on i covers i_outer and i_inner; one on i_inner alone would name an
    iname that does not exist yet, and leave i_outer unproved)."""
    base = iname
    while base.endswith(("_inner", "_outer")):
        parent, part = base.rsplit("_", 1)
        other = parent + ("_outer" if part == "inner" else "_inner")
        if parent in kernel.all_inames or not _names_iname(kernel, other):
            break
        base = parent
    if base == iname:
        return (f"  if the iterations of {iname} really are independent, say so with "
                f"independent(\"{iname}\") in the region")
    return (f"  if the iterations of loop {base} really are independent, say so with "
            f"independent(\"{base}\") in the region, before the split_iname that made {iname}")


def check_mapping(kernel: Kernel) -> dict[str, str]:
    """Verdict per parallel iname for reports: "legal", "asserted independent" or the error.

    The mapping is judged as a whole first (inames on one axis share work items, so one
    judged alone can seem to race); only when it fails is each iname judged alone, to say
    which ones are at fault."""
    asserted = asserted_independent(kernel)
    verdicts = {n: "asserted independent" for n in parallel_inames(kernel) if n in asserted}
    checked = [n for n in parallel_inames(kernel) if n not in asserted]
    try:
        check_kernel(kernel)
        return {**verdicts, **{n: "legal" for n in checked}}
    except LegalityError:
        pass
    for iname in checked:
        only = kernel.copy(iname_tags=type(kernel.iname_tags)(
            {n: t for n, t in kernel.iname_tags.items() if n == iname}))
        try:
            check_kernel(only)
            verdicts[iname] = "legal"
        except LegalityError as err:
            verdicts[iname] = err.message
    return verdicts


# ---------------------------------------------------------------------------------------------
# reorderings: unrolled loops moved inward

def check_unrolled_reorderings(kernel: Kernel) -> None:
    """The scheduler puts an unrolled (``unr``) loop inside the sequential loops of its
    statements (register blocking: a private accumulator per copy).  Where the source nests a
    sequential loop inside it (every statement of that loop is in the unrolled one, and some
    statement of the unrolled loop is not in it), the copies run interleaved, as ``ilp``
    copies do: two iterations of the unrolled loop must then not touch one element with a
    write.  Before, ``do i`` split with ``inner_tag="unr"`` around ``do j`` and a statement
    after it gave wrong results (tests/e2e/test_e2e_fuzz_regressions.py)."""
    within: dict[str, set[str]] = {}
    for stmt in kernel.statements:
        for iname in stmt.within_inames:
            within.setdefault(iname, set()).add(stmt.id)
    accesses = None
    for iname in sorted(within):
        if not any(isinstance(t, UnrollTag) for t in kernel.tags_of(iname)):
            continue
        if not _moves_inward(kernel, iname, within):
            continue
        if accesses is None:
            accesses = kernel_accesses(kernel)
        aliases = {a.name: a.may_alias for a in kernel.array_args}
        for a, b in _conflicting_pairs(accesses, aliases):
            if iname in a.inames and iname in b.inames:
                _check_pair(kernel, iname, UnrollTag(), a, b)


def _moves_inward(kernel: Kernel, iname: str, within: dict[str, set[str]]) -> bool:
    """Whether a sequential loop nested in unrolled `iname` would be scheduled outside it."""
    mine = within[iname]
    for other, theirs in within.items():
        if other == iname or any(isinstance(t, (UnrollTag, IlpUnrollTag, VectorizeTag,
                                                 LocalTag, GroupTag, LocalAutoTag))
                                 for t in kernel.tags_of(other)):
            continue
        if theirs & mine and not mine <= theirs:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# reorderings: sequential loops of a parallel reduction moved inward

def check_reduction_reorderings(kernel: Kernel) -> None:
    """A reduction over a sequential loop r (the sequential part of a split group- or
    local-mapped loop, joined to the reduction because its bounds name the mapped part) is
    computed per iteration of the statement's other sequential loops o: code generation puts
    every such o around r (`translator.codegen.parallel_reductions`), and the order of loops is
    one for the whole kernel.  Where the source nests o inside r, the other statements of r
    then run with the loops interchanged (those inside o too) or distributed (those inside r
    alone run in a loop of their own, before or after).  Raise `LegalityError` where that
    reverses a dependence: two instances touching one element with a write, ordered one way
    before and the other way after, or a private temporary that carries a value between the
    two parts.  Before, ``do i`` split with ``outer_tag="g.0"`` around ``do j`` holding a
    product reduction and writes of ``a0(j + 2)``, with ``a0(i + 2)`` written after the
    ``j`` loop, gave wrong numbers (tests/e2e/fuzz_regressions/reduction_interchange.f90)."""
    hardware = {n for n in kernel.iname_tags
                if any(is_hardware_parallel(t) for t in kernel.tags_of(n))}
    decl = {n: k for k, n in enumerate(n for d in kernel.domains for n in inames_of(d))}
    pairs: dict[tuple[str, str], str] = {}
    for stmt in kernel.statements:
        for r in sorted(reduction_inames(stmt) - hardware):
            for o in sorted(stmt.within_inames - hardware):
                if o in decl and r in decl and decl[r] < decl[o]:
                    pairs.setdefault((o, r), stmt.id)
    if not pairs:
        return
    reducing = {s.id: s.assignee_names() for s in kernel.statements if reduction_inames(s)}
    accesses = [a for a in kernel_accesses(kernel)
                if a.variable not in reducing.get(a.statement, ())]
    aliases = {a.name: a.may_alias for a in kernel.array_args}
    for (o, r), sid in sorted(pairs.items()):
        why = (f"(the reduction of statement {sid} over {r} runs inside loop {o}, so {o} goes "
               f"outside {r} for the whole kernel)")
        _check_private_split(kernel, o, r, why)
        for a, b in _conflicting_pairs(accesses, aliases):
            both_a, both_b = {o, r} <= set(a.inames), {o, r} <= set(b.inames)
            if both_a and both_b:
                _check_interchange(kernel, o, r, a, b, why)
            elif r in a.inames and r in b.inames:
                # one inside o, or both outside it (then maybe on either side of it, in two
                # loops over r): instances of different iterations of r may change order
                _check_distribution(kernel, o, r, a, b, why)


def _check_private_split(kernel: Kernel, o: str, r: str, why: str) -> None:
    """A private temporary written in loop r outside loop o and read inside both (or the
    other way) holds one value per iteration of r: distributed, the reads see the last."""
    inner, outer = set(), set()
    for stmt in kernel.statements:
        if r not in stmt.within_inames:
            continue
        names = set(stmt.assignee_names()) | {n for e in stmt.read_expressions()
                                              for n in dependencies(e)}
        (inner if o in stmt.within_inames else outer).update(
            n for n in names if n in kernel.temporaries
            and kernel.temporaries[n].address_space == AddressSpace.PRIVATE)
    shared = sorted(inner & outer)
    if shared:
        stmt = next(s for s in kernel.statements if r in s.within_inames
                    and o not in s.within_inames and shared[0] in
                    set(s.assignee_names()) | {n for e in s.read_expressions()
                                               for n in dependencies(e)})
        raise LegalityError(
            f"distributing loop {r} around loop {o} {why} separates the uses of private "
            f"variable {shared[0]!r} inside and outside loop {o}", stmt.span,
            detail=f"  map the reduction's loop differently, or move the reduction into a "
                   "region of its own")


def _check_distribution(kernel: Kernel, o: str, r: str, a: Access, b: Access,
                        why: str) -> None:
    """One of `a`, `b` runs inside loop o, the other in loop r outside o (or both outside o,
    perhaps on either side of it): after the distribution all instances of one may run before
    all of the other, so two instances in different iterations of r must not touch one
    element with a write."""
    pair = _pair(kernel, a, b)
    witness = find_conflict(pair.first, pair.second, pair.equalities,
                            [(r, pair.rename[r])])
    if witness is None:
        return
    rename = pair.rename
    va = {n: witness[n] for n in a.inames if n in witness}
    vb = {n: witness[rename[n]] for n in b.inames if rename[n] in witness}
    params = {n: w for n, w in witness.items() if not n.startswith(_SECOND) and n not in va}
    where_b = f" ({b.span.file}:{b.span.line})" if b.span is not None else ""
    verdict = "reorders" if pair.exact else "may reorder (a subscript is not affine)"
    raise LegalityError(
        f"distributing loop {r} around loop {o} {why} {verdict} a dependence: iteration "
        f"{_source_point(kernel, va, params)} {a.verb} {_element(a, {**params, **va})}, "
        f"iteration {_source_point(kernel, vb, params)} {b.verb} "
        f"{_element(b, {**params, **vb})}{where_b}",
        a.span, detail="  map the reduction's loop differently, or move the reduction into a "
                       "region of its own")


# ---------------------------------------------------------------------------------------------
# reorderings: loop interchanges asked for with prioritize_loops

def inverted_priorities(kernel: Kernel) -> list[tuple[str, str]]:
    """(new outer, new inner) pairs where a loop priority puts a loop outside one that comes
    before it in declaration order (source nesting order, as the frontends declare domains)."""
    decl = {n: k for k, n in enumerate(n for d in kernel.domains for n in inames_of(d))}
    pairs = set()
    for prio in kernel.loop_priority:
        for a_pos, outer in enumerate(prio):
            for inner in prio[a_pos + 1:]:
                if outer in decl and inner in decl and decl[inner] < decl[outer]:
                    pairs.add((outer, inner))
    return sorted(pairs)


def check_interchanges(kernel: Kernel) -> None:
    """Interchanging loops u (now outer) and v (originally outer) reverses a dependence
    exactly when two instances touching one element with a write are ordered one way by v and
    the other way by u: v_x < v_y and u_x > u_y.  Raise `LegalityError` with such a pair."""
    pairs = inverted_priorities(kernel)
    if not pairs:
        return
    aliases = {a.name: a.may_alias for a in kernel.array_args}
    accesses = kernel_accesses(kernel)
    for outer, inner in pairs:
        for a, b in _conflicting_pairs(accesses, aliases):
            if {outer, inner} <= set(a.inames) and {outer, inner} <= set(b.inames):
                _check_interchange(kernel, outer, inner, a, b)


def _check_interchange(kernel: Kernel, u: str, v: str, a: Access, b: Access,
                       why: str = "") -> None:
    pair = _pair(kernel, a, b)
    first, second, rename = pair.first, pair.second, pair.rename
    equalities, exact = pair.equalities, pair.exact
    uv, vv = p.Variable(u), p.Variable(v)
    u2, v2 = p.Variable(rename[u]), p.Variable(rename[v])
    for less in ([(vv, v2), (u2, uv)], [(v2, vv), (uv, u2)]):
        witness = find_conflict(first, second, equalities, [], less)
        if witness is not None:
            va = {n: witness[n] for n in a.inames if n in witness}
            vb = {n: witness[rename[n]] for n in b.inames if rename[n] in witness}
            params = {n: w for n, w in witness.items()
                      if not n.startswith(_SECOND) and n not in va}
            where_b = f" ({b.span.file}:{b.span.line})" if b.span is not None else ""
            verdict = "reverses a dependence" if exact else \
                "may reverse a dependence (a subscript is not affine)"
            raise LegalityError(
                f"interchanging loops {u} and {v} "
                f"{why or f'(prioritize_loops puts {u} outside {v})'} {verdict}: iteration {_source_point(kernel, va, params)} {a.verb} "
                f"{_element(a, {**params, **va})}, iteration "
                f"{_source_point(kernel, vb, params)} {b.verb} "
                f"{_element(b, {**params, **vb})}{where_b}",
                a.span, detail=f"  keep {v} outside {u}, or check the loop nest" if not why else
                "  map the reduction's loop differently, or move the reduction into a region "
                "of its own")
