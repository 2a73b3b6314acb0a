"""Splitting and joining inames: split_iname, chunk_iname, join_inames.

Slabs (`split_iname(..., slabs=(head, tail))`) are recorded on the kernel as
``options.extra["iname_slab_increments"]``: a sorted tuple of ``(outer_iname, head, tail)``
for every split with non-zero slabs.  Code generation may use them to peel iterations; it is
free to ignore them (they never change what the kernel computes).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import DomainError, TransformError
from translator.ir import isl_glue
from translator.ir.expr import Expression, Reduction, dependencies
from translator.ir.mappers import expression_reduction_inames
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.ir.tags import ForceSequentialTag

from transforms.common import (Rewriter, check_iname, drop_inames, map_within_inames,
                               name_list, new_name, positive_int, replace_in_priorities,
                               rewrite_statements, statement_expressions, used_inames)
from transforms.inames import check_tag_syntax, resolve_tag, set_tag
from transforms.match import parse_stack_match
from transforms.registry import transform
from translator.records import dataclass, replace

SLABS_OPTION = "iname_slab_increments"


@dataclass(frozen=True, slots=True)
class _Split:
    """What a split needs: names, the domain linearisation and the index expression."""

    transform: str
    iname: str
    outer: str
    inner: str
    length: int                    # the fixed length (inner for split, outer for chunk)
    fixed_is_inner: bool
    index: Expression              # iname in terms of outer and inner, for statements


@transform()
def split_iname(kernel: Kernel, split_iname: str, inner_length: int, *,
                outer_iname: str | None = None, inner_iname: str | None = None,
                outer_tag: Any = None, inner_tag: Any = None, slabs: tuple[int, int] = (0, 0),
                do_tagged_check: bool = True, within: Any = None) -> Kernel:
    """Split an iname into an outer and an inner iname of fixed length `inner_length`.

    ``split_iname == inner + outer*inner_length`` with ``0 <= inner < inner_length``.
    Example::

        before: {[i]: 0<=i<n}                                   out[i] = 2*a[i]
        split_iname(knl, "i", 128, outer_tag="g.0", inner_tag="l.0")
        after:  {[i_outer, i_inner]: 0<=i_inner<128 and 0<=i_inner+128*i_outer<n}
                out[i_inner + i_outer*128] = 2*a[i_inner + i_outer*128]

    Statements not matched by `within` keep `split_iname`; so does the domain while they do.
    A reduction over `split_iname` becomes a reduction over both new inames.  The new inames
    do not inherit the old one's tag; splitting a tagged iname (other than ``ord``) is an
    error unless `do_tagged_check` is False.
    """
    name = "split_iname"
    _check_split_args(kernel, name, split_iname, outer_tag, inner_tag, slabs, do_tagged_check)
    length = positive_int(inner_length, name, "inner_length")
    outer, inner = _new_names(kernel, name, split_iname, outer_iname, inner_iname)
    index = p.Variable(inner) + p.Variable(outer) * length
    spec = _Split(name, split_iname, outer, inner, length, True, index)
    return _split(kernel, spec, outer_tag, inner_tag, slabs, within)


@transform()
def chunk_iname(kernel: Kernel, split_iname: str, num_chunks: int,
                outer_iname: str | None = None, inner_iname: str | None = None,
                outer_tag: Any = None, inner_tag: Any = None, slabs: tuple[int, int] = (0, 0),
                do_tagged_check: bool = True, within: Any = None) -> Kernel:
    """Split an iname into `num_chunks` contiguous chunks (the outer iname has fixed length).

    Chunk lengths differ by at most one.  The iname must range over ``0 <= i < N``
    independently of other inames.  Example::

        before: {[i]: 0<=i<10}                     out[i] = a[i]
        chunk_iname(knl, "i", 2)
        after:  {[i_outer, i_inner]: 0<=i_outer<2 and 0<=i_outer+2*i_inner<10}
                out[i_inner + 5*i_outer] = a[i_inner + 5*i_outer]
    """
    name = "chunk_iname"
    _check_split_args(kernel, name, split_iname, outer_tag, inner_tag, slabs, do_tagged_check)
    chunks = positive_int(num_chunks, name, "num_chunks")
    extent = _box_extent(kernel, name, split_iname)
    outer, inner = _new_names(kernel, name, split_iname, outer_iname, inner_iname)
    index = _chunk_index(p.Variable(inner), p.Variable(outer), extent, chunks)
    spec = _Split(name, split_iname, outer, inner, chunks, False, index)
    return _split(kernel, spec, outer_tag, inner_tag, slabs, within)


def _check_split_args(kernel: Kernel, name: str, iname: str, outer_tag: Any, inner_tag: Any,
                      slabs: Any, do_tagged_check: bool) -> None:
    check_iname(kernel, iname, name)
    check_tag_syntax(outer_tag, name, "outer_tag")
    check_tag_syntax(inner_tag, name, "inner_tag")
    if not (isinstance(slabs, (tuple, list)) and len(slabs) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in slabs)):
        raise TransformError(f"{name}: slabs must be a pair of non-negative integers "
                             f"(head, tail), got {slabs!r}")
    tags = [t for t in kernel.tags_of(iname) if not isinstance(t, ForceSequentialTag)]
    if do_tagged_check and tags:
        raise TransformError(f"{name}: cannot split iname {iname!r}: it is already tagged "
                             f"{str(tags[0])!r} (untag it first, or pass "
                             "do_tagged_check=False)")


def _new_names(kernel: Kernel, name: str, iname: str, outer: str | None, inner: str | None
               ) -> tuple[str, str]:
    taken: set[str] = set()
    outer = new_name(kernel, outer, f"{iname}_outer", name, "outer_iname", taken)
    inner = new_name(kernel, inner, f"{iname}_inner", name, "inner_iname", taken)
    return outer, inner


def _box_extent(kernel: Kernel, name: str, iname: str) -> Expression:
    home = kernel.domains[kernel.domain_index_of(iname)]
    found = isl_glue.box_extent(home, iname)
    if found is None:
        raise TransformError(f"{name}: iname {iname!r} does not range over 0 <= {iname} < N "
                             "independently of the other inames (its domain is not a box "
                             "about it)")
    for d in kernel.domains:
        if iname in isl_glue.params_of(d):
            raise TransformError(f"{name}: iname {iname!r} bounds a nested domain "
                                 f"({isl_glue.domain_str(d)}); it cannot be chunked")
    return found[0]


def _chunk_index(inner: p.Variable, outer: p.Variable, extent: Expression, chunks: int
                 ) -> Expression:
    """Index of (outer, inner) when `extent` points are dealt into `chunks` contiguous chunks
    whose lengths differ by at most one (the first ``extent % chunks`` are longer)."""
    if isinstance(extent, int):
        ceil, floor, rem = -(-extent // chunks), extent // chunks, extent % chunks
        if rem == 0:
            return inner + outer * floor
    else:
        ceil = p.FloorDiv(extent + (chunks - 1), chunks)
        floor = p.FloorDiv(extent, chunks)
        rem = p.Remainder(extent, chunks)
    low = p.Call(p.Variable("min"), (outer, rem))
    return inner + ceil * low + floor * (outer - low)


def _split(kernel: Kernel, spec: _Split, outer_tag: Any, inner_tag: Any,
           slabs: tuple[int, int], within: Any) -> Kernel:
    match = parse_stack_match(within)
    ids = {s.id for s in kernel.statements if match(kernel, s)}
    if not ids:
        return kernel
    users = _users(kernel, spec.iname, ids)
    result = _split_statements(kernel, spec, ids if users is None else users)
    keep = spec.iname in (used_inames(result) if users is None
                          else _inames_used(result, ids))
    domains = tuple(isl_glue.split_dim(d, spec.iname, spec.outer, spec.inner, spec.length,
                                       fixed_is_inner=spec.fixed_is_inner, keep_original=keep)
                    for d in result.domains)
    prios = replace_in_priorities(result.loop_priority, {spec.iname: (spec.outer, spec.inner)})
    result = replace(result, domains=domains, loop_priority=prios)
    if not keep:
        result = drop_inames(result, [spec.iname])
    result = _record_slabs(result, spec.outer, slabs)
    result = _inherit_independence(result, spec.iname, (spec.outer, spec.inner))
    for iname, tag, what in ((spec.outer, outer_tag, "outer_tag"),
                             (spec.inner, inner_tag, "inner_tag")):
        result = set_tag(result, iname, resolve_tag(result, tag, spec.transform, what),
                         transform_name=spec.transform)
    return result


def _users(kernel: Kernel, iname: str, ids: set[str]) -> set[str] | None:
    """The statements of `ids` whose rewriting by the split may change them: those inside
    `iname`'s loop, reading it, or reducing over it; the others come out of the rewriter
    unchanged, and a split in a kernel of many loops (the automatic mapper's probe of one
    loop of a region) need not walk their expressions.  None where the kernel has
    substitution rules (which rules the split rewrites depends on every selected statement)."""
    if kernel.substitutions:
        return None
    return {s.id for s in kernel.statements
            if s.id in ids and (iname in s.within_inames or _mentions(s, iname))}


def _mentions(stmt: Statement, iname: str) -> bool:
    """Whether an expression of `stmt` (assignees and predicates too) reads `iname` or reduces
    over it."""
    exprs = (*getattr(stmt, "assignees", ()),
             *(getattr(stmt, f) for f in ("assignee", "expression") if hasattr(stmt, f)),
             *stmt.predicates)   # `statement_expressions` but unsorted
    return any(iname in dependencies(e) or iname in expression_reduction_inames(e)
               for e in exprs)


def _inames_used(kernel: Kernel, skip: set[str]) -> frozenset[str]:
    """`used_inames` of `kernel` (which has no substitution rules) but the statements of
    `skip`, which use none of the inames asked about: the split's selected statements, of
    which those that used the split iname were just rewritten (its reductions renamed, its
    loop replaced by the pair, every read substituted) and the others never did."""
    used: set[str] = set()
    for s in kernel.statements:
        if s.id not in skip:
            used |= s.within_inames
            used.update(*map(expression_reduction_inames, statement_expressions(s)))
    return frozenset(used)


def _split_statements(kernel: Kernel, spec: _Split, ids: set[str]) -> Kernel:
    new_pair = (spec.outer, spec.inner)

    def reduction_inames(red: Reduction) -> tuple[str, ...] | None:
        if spec.iname not in red.inames:
            return None
        return tuple(j for i in red.inames for j in (new_pair if i == spec.iname else (i,)))

    rewriter = Rewriter({spec.iname: spec.index}, reduction_inames=reduction_inames)
    result = rewrite_statements(kernel, rewriter, lambda s: s.id in ids)
    return map_within_inames(result, lambda s: (
        (s.within_inames - {spec.iname}) | set(new_pair)
        if s.id in ids and spec.iname in s.within_inames else s.within_inames))


def _inherit_independence(kernel: Kernel, old: str, new: tuple[str, ...]) -> Kernel:
    """An `independent` assertion on the split iname holds for both of its parts."""
    asserted = kernel.options.extra.get("independent", ())
    if old not in asserted:
        return kernel
    extra = kernel.options.extra.set("independent", tuple(sorted(set(asserted) | set(new))))
    return replace(kernel, options=replace(kernel.options, extra=extra))


def _record_slabs(kernel: Kernel, outer: str, slabs: tuple[int, int]) -> Kernel:
    if tuple(slabs) == (0, 0):
        return kernel
    extra = kernel.options.extra
    entries = {e[0]: e for e in extra.get(SLABS_OPTION, ())}
    entries[outer] = (outer, int(slabs[0]), int(slabs[1]))
    new_extra = extra.set(SLABS_OPTION, tuple(entries[k] for k in sorted(entries)))
    return replace(kernel, options=replace(kernel.options, extra=new_extra))


# ---------------------------------------------------------------------------------------------
# join


@transform()
def join_inames(kernel: Kernel, inames: str | Iterable[str], new_iname: str | None = None,
                tag: Any = None, within: Any = None) -> Kernel:
    """Join several inames of one domain into one iname (the inverse of split_iname).

    `inames` go slowest first, fastest last; for two inames ``new = (i0 - lo0)*LEN(i1) +
    (i1 - lo1)``, and the old inames are recovered with ``//`` and ``%`` (floor semantics).
    All must be defined by the same domain; all but the first need a constant length.
    Statements not matched by `within` keep the old inames.  Example::

        before: {[i, j]: 0<=i<n and 0<=j<16}            out[i, j] = a[i, j]
        join_inames(knl, ["i", "j"])
        after:  {[j_and_i]: 0<=j_and_i<16*n}
                out[j_and_i // 16, j_and_i % 16] = a[j_and_i // 16, j_and_i % 16]
    """
    name = "join_inames"
    names = list(name_list(inames, name, "inames"))
    if not names:
        raise TransformError(f"{name}: no inames to join")
    for i in names:
        check_iname(kernel, i, name)
    if len(set(names)) != len(names):
        raise TransformError(f"{name}: an iname appears twice in {names!r}")
    check_tag_syntax(tag, name, "tag")
    home = _common_domain(kernel, names, name)
    new = new_name(kernel, new_iname, "_and_".join(reversed(names)), name, "new_iname", set())
    joint, recover = _join_maps(kernel.domains[home], names, new, name)
    match = parse_stack_match(within)
    ids = {s.id for s in kernel.statements if match(kernel, s)}
    if not ids:
        return kernel
    result = _join_statements(kernel, names, new, recover, ids)
    used = used_inames(result)
    domains = tuple(_join_domain(d, k == home, names, new, joint, recover)
                    for k, d in enumerate(result.domains))
    prios = replace_in_priorities(result.loop_priority, {i: (new,) for i in names})
    result = replace(result, domains=domains, loop_priority=prios)
    result = drop_inames(result, [i for i in names if i not in used])
    return set_tag(result, new, resolve_tag(result, tag, name, "tag"), transform_name=name)


def _common_domain(kernel: Kernel, names: list[str], name: str) -> int:
    homes = {i: kernel.domain_index_of(i) for i in names}
    if len(set(homes.values())) != 1:
        raise TransformError(f"{name}: inames {', '.join(repr(i) for i in names)} are defined "
                             "by different domains; only inames of one domain can be joined")
    return homes[names[0]]


def _join_maps(domain: Any, names: list[str], new: str, name: str
               ) -> tuple[Expression, dict[str, Expression]]:
    """The joint index (in the old inames) and each old iname in terms of `new`."""
    lowers, lengths = [], []
    for k, i in enumerate(names):
        lo = isl_glue.static_lower_bound(domain, i)
        if lo is None:
            raise TransformError(f"{name}: the lower bound of iname {i!r} is not a single "
                                 "affine expression in the parameters")
        length = isl_glue.static_length(domain, i, lo)
        if length is None and k > 0:
            raise TransformError(f"{name}: iname {i!r} needs a constant length (only the "
                                 "first, slowest iname may have a parametric one)")
        lowers.append(lo)
        lengths.append(length)
    strides = [1] * len(names)
    for k in range(len(names) - 2, -1, -1):
        strides[k] = strides[k + 1] * lengths[k + 1]
    terms = [_scaled(_offset(p.Variable(i), lo), st)
             for i, lo, st in zip(names, lowers, strides)]
    joint: Expression = terms[0] if len(terms) == 1 else p.Sum(tuple(terms))
    recover: dict[str, Expression] = {}
    for k, (i, lo, st) in enumerate(zip(names, lowers, strides)):
        part: Expression = p.Variable(new) if st == 1 else p.FloorDiv(p.Variable(new), st)
        if k > 0:
            part = p.Remainder(part, lengths[k])
        recover[i] = part if lo == 0 else part + lo
    return joint, recover


def _scaled(e: Expression, stride: int) -> Expression:
    return e if stride == 1 else e * stride


def _offset(var: p.Variable, lo: Expression) -> Expression:
    return var if lo == 0 else var - lo


def _join_statements(kernel: Kernel, names: list[str], new: str,
                     recover: dict[str, Expression], ids: set[str]) -> Kernel:
    joined = set(names)
    for s in kernel.statements:
        if s.id in ids and s.within_inames & joined and not joined <= s.within_inames:
            missing = ", ".join(sorted(joined - s.within_inames))
            raise TransformError(f"join_inames: statement {s.id!r} is not inside {missing}; "
                                 "joining would repeat it", s.span)

    def reduction_inames(red: Reduction) -> tuple[str, ...] | None:
        inside = joined & set(red.inames)
        if not inside:
            return None
        if inside != joined:
            raise TransformError(f"join_inames: reduction {red} is over only some of the "
                                 f"joined inames ({', '.join(sorted(inside))})")
        out: list[str] = []
        for i in red.inames:
            j = new if i in joined else i
            if j not in out:
                out.append(j)
        return tuple(out)

    rewriter = Rewriter(recover, reduction_inames=reduction_inames)
    result = rewrite_statements(kernel, rewriter, lambda s: s.id in ids)
    return map_within_inames(result, lambda s: _joined_within(s, joined, new, ids))


def _joined_within(s: Statement, joined: set[str], new: str, ids: set[str]) -> frozenset[str]:
    if s.id in ids and joined <= s.within_inames:
        return (s.within_inames - joined) | {new}
    return s.within_inames


def _join_domain(domain: Any, is_home: bool, names: list[str], new: str, joint: Expression,
                 recover: dict[str, Expression]) -> Any:
    """Add `new` to the home domain (tied to the old inames by `joint`) and, as a parameter,
    to nested domains bounded by an old iname (tied by `recover`)."""
    try:
        if is_home:
            pos = min(domain.get_var_dict()[i][1] for i in names)
            with_new = isl_glue.add_dim(domain, new, pos=pos)
            return isl_glue.constrain_equal(with_new, new, joint)
        bounded = [i for i in names if i in isl_glue.params_of(domain)]
        if not bounded:
            return domain
        domain = isl_glue.add_dim(domain, new, param=True)
        for i in bounded:
            domain = isl_glue.constrain_equal(domain, i, recover[i])
        return domain
    except DomainError as e:
        raise TransformError(f"join_inames: {e.message}") from None

