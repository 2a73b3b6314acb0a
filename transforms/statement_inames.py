"""Which inames statements and their reductions run over: duplicate_inames (and the nesting
analysis that says when it is needed), split_reduction_inward/outward,
make_reduction_inames_unique, add_inames_to_insn, add_inames_for_unused_hw_axes (maps of
inames: `transforms.iname_maps`; renaming and tagging: `transforms.inames`).

Inames are kernel-global names, so an iname substituted in a statement is substituted in
reductions inside it too; a reduction over an old iname becomes a reduction over its image.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import DomainError, SchedulingError, TransformError
from translator.ir import isl_glue
from translator.ir.expr import Expression, IRIdentityMapper, Reduction, substitute
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.ir.tags import (GroupTag, IlpSeqTag, IlpUnrollTag, InameTag, LocalAutoTag,
                                LocalTag, VectorizeTag, is_hardware_parallel)
from translator.ir.util import UniqueNameGenerator
from translator.schedule import schedule_kernel

from transforms.common import (Rewriter, check_iname, collect, drop_inames, kernel_names,
                               map_statement_expressions, map_within_inames, name_list,
                               new_name, rewrite_statements, statement_expressions,
                               used_inames)
from transforms.inames import bounding_inames, check_tag_syntax, resolve_tag, set_tag
from transforms.match import parse_match, parse_stack_match
from transforms.registry import transform

# ---------------------------------------------------------------------------------------------
# shared checks


def check_schedulable(kernel: Kernel, transform_name: str) -> None:
    """Raise a TransformError if the scheduler cannot order `kernel`'s statements."""
    try:
        schedule_kernel(kernel)
    except (SchedulingError, DomainError) as e:
        raise TransformError(f"{transform_name}: the result is not schedulable: "
                             f"{e.message}") from None


def _statement_inames(kernel: Kernel, stmt: Statement) -> frozenset[str]:
    """`within_inames` and the inames of reductions in the statement (rules included)."""
    found = collect(statement_expressions(stmt), kernel.substitutions)
    rules = [kernel.substitutions[n].expression for n in sorted(found.invoked)]
    return stmt.within_inames | found.reduction_inames | collect(rules).reduction_inames


def _check_not_bounding(kernel: Kernel, iname: str, stmts: Iterable[Statement],
                        transform_name: str) -> None:
    """An iname that bounds a nested domain cannot be replaced in statements using that
    domain's inames: the nested domain would keep referring to the old one."""
    for d in kernel.domains:
        if iname not in isl_glue.params_of(d):
            continue
        nested = set(isl_glue.inames_of(d))
        for s in stmts:
            if _statement_inames(kernel, s) & nested:
                raise TransformError(
                    f"{transform_name}: iname {iname!r} bounds the nested domain "
                    f"{isl_glue.domain_str(d)}, whose inames statement {s.id!r} also uses; "
                    f"{iname!r} cannot be replaced there", s.span)


def check_no_nested(kernel: Kernel, iname: str, transform_name: str) -> None:
    if iname in bounding_inames(kernel):
        raise TransformError(f"{transform_name}: iname {iname!r} bounds a nested domain; "
                             "inames that bound other loops cannot be remapped")


# ---------------------------------------------------------------------------------------------
# duplicate_inames


@transform()
def duplicate_inames(kernel: Kernel, inames: str | Iterable[str], within: Any,
                     new_inames: Iterable[str | None] | None = None, suffix: str | None = None,
                     tags: Mapping[str, Any] | None = None) -> Kernel:
    """Give the statements matched by `within` their own copy of each of `inames`.

    The copy iterates over the same domain (same constraints, including those tying it to
    other inames) but is a separate loop.  `new_inames` names the copies (default: a fresh
    name, or ``iname + suffix``); `tags` maps an old iname to the tag of its copy (copies are
    otherwise untagged).  Example::

        before: {[i]: 0<=i<n}    a[i] = 1 {id=s1} ; b[i] = 2 {id=s2}
        duplicate_inames(knl, "i", "id:s2")
        after:  {[i, i_0]: 0<=i<n and 0<=i_0<n}    a[i] = 1 ; b[i_0] = 2
    """
    name = "duplicate_inames"
    olds = name_list(inames, name, "inames")
    if not olds:
        raise TransformError(f"{name}: no inames to duplicate")
    if len(set(olds)) != len(olds):
        raise TransformError(f"{name}: an iname appears twice in {olds!r}")
    for old in olds:
        check_iname(kernel, old, name)
    news = _duplicate_names(kernel, olds, new_inames, suffix)
    tag_specs = _duplicate_tags(olds, tags)
    match = parse_stack_match(within)
    ids = {s.id for s in kernel.statements if match(kernel, s)}
    result = kernel
    for old, new in zip(olds, news):
        result = _duplicate_one(result, old, new, ids)
    if result is kernel:
        return kernel
    for old, new in zip(olds, news):
        if new in result.all_inames:
            tag = resolve_tag(result, tag_specs.get(old), name, f"tag for {new!r}")
            result = set_tag(result, new, tag, transform_name=name)
    check_schedulable(result, name)
    return result


def _duplicate_names(kernel: Kernel, olds: tuple[str, ...], new_inames: Any,
                     suffix: str | None) -> list[str]:
    name = "duplicate_inames"
    requested = [None] * len(olds) if new_inames is None else list(
        name_list(new_inames, name, "new_inames") if isinstance(new_inames, str)
        else new_inames)
    if len(requested) != len(olds):
        raise TransformError(f"{name}: {len(requested)} new iname(s) for {len(olds)} "
                             "iname(s)")
    if suffix is not None and not (isinstance(suffix, str) and f"i{suffix}".isidentifier()):
        raise TransformError(f"{name}: suffix must be a string of identifier characters, "
                             f"got {suffix!r}")
    taken: set[str] = set()
    news = []
    for old, req in zip(olds, requested):
        default = old + suffix if suffix else old
        news.append(new_name(kernel, req, default, name, "new iname", taken))
    return news


def _duplicate_tags(olds: tuple[str, ...], tags: Any) -> dict[str, Any]:
    if tags is None:
        return {}
    if not isinstance(tags, Mapping):
        raise TransformError(f"duplicate_inames: tags must map old inames to tags, got {tags!r}")
    for key, spec in tags.items():
        if key not in olds:
            raise TransformError(f"duplicate_inames: tags names {key!r}, which is not one of "
                                 f"the inames being duplicated ({', '.join(olds)})")
        check_tag_syntax(spec, "duplicate_inames", f"tag for {key!r}")
    return dict(tags)


def _duplicate_one(kernel: Kernel, old: str, new: str, ids: set[str]) -> Kernel:
    users = [s for s in kernel.statements
             if s.id in ids and old in _statement_inames(kernel, s)]
    if not users:
        return kernel
    _check_not_bounding(kernel, old, users, "duplicate_inames")
    user_ids = {s.id for s in users}
    result = _replace_iname(kernel, old, new, user_ids)
    keep = old in used_inames(result) or old in bounding_inames(result)
    home = kernel.domain_index_of(old)
    op = isl_glue.duplicate_dim if keep else isl_glue.rename_dim
    domains = tuple(op(d, old, new) if k == home else d for k, d in enumerate(result.domains))
    result = replace(result, domains=domains)
    return result if keep else drop_inames(result, [old])


def _replace_iname(kernel: Kernel, old: str, new: str, ids: set[str]) -> Kernel:
    """Rename iname `old` to `new` in the statements `ids` (reductions included)."""
    def reduction_inames(red: Reduction) -> tuple[str, ...] | None:
        return tuple(new if i == old else i for i in red.inames) if old in red.inames else None

    rewriter = Rewriter({old: p.Variable(new)}, reduction_inames=reduction_inames)
    result = rewrite_statements(kernel, rewriter, lambda s: s.id in ids)
    return map_within_inames(result, lambda s: (
        (s.within_inames - {old}) | {new}
        if s.id in ids and old in s.within_inames else s.within_inames))


# ---------------------------------------------------------------------------------------------
# when duplication is needed


def _concurrent(tag: InameTag) -> bool:
    return is_hardware_parallel(tag) or isinstance(tag, (IlpUnrollTag, IlpSeqTag,
                                                         VectorizeTag))


def get_iname_duplication_options(kernel: Kernel) -> Iterator[tuple[str, str]]:
    """Ways to duplicate an iname that a kernel needs before its loops can each be entered
    once, as ``(iname, within)`` pairs that `duplicate_inames` accepts.

    Sequential inames of the statements must nest: after removing the inames every statement
    shares, the statements must split into groups with disjoint inames, recursively.  Where a
    group does not split, each of its inames can be duplicated in any proper subset of the
    statements using it.  There is no guarantee one duplication suffices.  Example::

        {[i, j]}   s1 {inames=i:j} ; s2 {inames=j} ; s3 {inames=i}
        -> ("i", "id:s1"), ("i", "id:s3"), ("j", "id:s1"), ("j", "id:s2")
    """
    concurrent = {i for i, tags in kernel.iname_tags.items() if any(map(_concurrent, tags))}
    by_set: dict[frozenset[str], list[str]] = {}
    for s in kernel.statements:
        by_set.setdefault(frozenset(s.within_inames - concurrent), []).append(s.id)
    sets = frozenset(by_set) - {frozenset()}
    for iname, groups in _duplication_options(sets, frozenset()):
        ids = sorted((sid for g in groups for sid in by_set.get(g, ())),
                     key=[s.id for s in kernel.statements].index)
        if ids:
            yield iname, " or ".join(f"id:{sid}" for sid in ids)


def _duplication_options(sets: frozenset[frozenset[str]], common: frozenset[str]
                         ) -> Iterator[tuple[str, tuple[frozenset[str], ...]]]:
    shared = frozenset.intersection(*sets) if sets else frozenset()
    if shared:
        rest = frozenset(s - shared for s in sets) - {frozenset()}
        yield from _duplication_options(rest, common | shared)
        return
    parts = _connected_parts(sets)
    if len(parts) > 1:
        for part in parts:
            yield from _duplication_options(frozenset(s for s in sets if s <= part), common)
        return
    for part in parts:   # one group that does not split: duplication is needed
        for iname in sorted(part):
            users = sorted((s for s in sets if iname in s), key=sorted)
            for size in range(1, len(users)):
                for chosen in itertools.combinations(users, size):
                    yield iname, tuple(s | common for s in chosen)


def _connected_parts(sets: frozenset[frozenset[str]]) -> list[frozenset[str]]:
    """Unions of the sets that overlap, transitively (sorted for determinism)."""
    parts: list[frozenset[str]] = []
    for s in sorted(sets, key=sorted):
        merged = s
        for other in [q for q in parts if q & s]:
            parts.remove(other)
            merged |= other
        parts.append(merged)
    return sorted(parts, key=sorted)


def has_schedulable_iname_nesting(kernel: Kernel) -> bool:
    """Whether the sequential inames of the statements nest (no duplication is needed; see
    `get_iname_duplication_options`)."""
    return next(get_iname_duplication_options(kernel), None) is None


# ---------------------------------------------------------------------------------------------
# splitting reductions


class _ReductionSplitter(Rewriter):
    """Nests a reduction over `inames` and other inames into two reductions."""

    def __init__(self, inames: frozenset[str], inward: bool,
                 bound: frozenset[str] = frozenset()) -> None:
        super().__init__({}, bound=bound)
        self.inames = inames
        self.inward = inward
        self.count = [0]   # shared with the copies made for rule bodies

    def with_bound(self, bound: Iterable[str]) -> _ReductionSplitter:
        copy = _ReductionSplitter(self.inames, self.inward, frozenset(bound))
        copy.count = self.count
        return copy

    def map_reduction(self, expr: Reduction, *args: Any, **kwargs: Any) -> Expression:
        body = self.rec(expr.expr)
        if not self.inames < set(expr.inames):
            return expr if body is expr.expr else Reduction(
                expr.operation, expr.inames, body, expr.allow_simultaneous)
        self.count[0] += 1
        chosen = tuple(i for i in expr.inames if i in self.inames)
        rest = tuple(i for i in expr.inames if i not in self.inames)
        inner, outer = (chosen, rest) if self.inward else (rest, chosen)
        nested = Reduction(expr.operation, inner, body, expr.allow_simultaneous)
        return Reduction(expr.operation, outer, nested, expr.allow_simultaneous)


def _split_reduction(kernel: Kernel, inames: Any, within: Any, inward: bool) -> Kernel:
    name = "split_reduction_" + ("inward" if inward else "outward")
    chosen = name_list(inames, name, "inames")
    if not chosen:
        raise TransformError(f"{name}: no inames given")
    for i in chosen:
        check_iname(kernel, i, name)
    match = parse_stack_match(within)
    ids = {s.id for s in kernel.statements if match(kernel, s)}
    splitter = _ReductionSplitter(frozenset(chosen), inward)
    result = rewrite_statements(kernel, splitter, lambda s: s.id in ids)
    if not splitter.count[0]:
        raise TransformError(f"{name}: no reduction in the selected statements is over "
                             f"{', '.join(chosen)} and further inames (nothing to split)")
    return result


@transform()
def split_reduction_inward(kernel: Kernel, inames: str | Iterable[str],
                           within: Any = None) -> Kernel:
    """Split a reduction so that `inames` govern the inner one.

    Example::

        before: out[i] = sum([j, k], a[i, j, k])
        split_reduction_inward(knl, "j")
        after:  out[i] = sum([k], sum([j], a[i, j, k]))
    """
    return _split_reduction(kernel, inames, within, inward=True)


@transform()
def split_reduction_outward(kernel: Kernel, inames: str | Iterable[str],
                            within: Any = None) -> Kernel:
    """Split a reduction so that `inames` govern the outer one.

    Example::

        before: out[i] = sum([j, k], a[i, j, k])
        split_reduction_outward(knl, "j")
        after:  out[i] = sum([j], sum([k], a[i, j, k]))
    """
    return _split_reduction(kernel, inames, within, inward=False)


# ---------------------------------------------------------------------------------------------
# unique reduction inames


class _Uniquifier(IRIdentityMapper):
    """Renames the inames of the second and later reductions over the same iname."""

    def __init__(self, names: UniqueNameGenerator, only: frozenset[str] | None) -> None:
        self.names = names
        self.only = only
        self.seen: dict[str, int] = {}
        self.renamed: list[tuple[str, str]] = []
        self.selected = False

    def map_reduction(self, expr: Reduction, *args: Any, **kwargs: Any) -> Expression:
        for i in expr.inames:
            self.seen[i] = self.seen.get(i, 0) + 1
        mapping = {}
        if self.selected and not expr.allow_simultaneous:
            for i in expr.inames:
                if self.seen[i] > 1 and (self.only is None or i in self.only):
                    mapping[i] = self.names(i)
                    self.renamed.append((i, mapping[i]))
        body = self.rec(substitute(expr.expr, {o: p.Variable(n) for o, n in mapping.items()}))
        inames = tuple(mapping.get(i, i) for i in expr.inames)
        if body is expr.expr and not mapping:
            return expr
        return Reduction(expr.operation, inames, body, expr.allow_simultaneous)


@transform()
def make_reduction_inames_unique(kernel: Kernel, inames: str | Iterable[str] | None = None,
                                 within: Any = None) -> Kernel:
    """Give each reduction (after the first) over an iname its own copy of that iname.

    Only reductions in statements matched by `within` are renamed, and only over `inames`
    (default: all); ``simul_reduce`` reductions are left alone.  Reductions inside
    substitution rules are not visited.  Example::

        before: out[i] = sum(j, a[i, j]) + sum(j, b[i, j])
        make_reduction_inames_unique(knl)
        after:  out[i] = sum(j, a[i, j]) + sum(j_0, b[i, j_0])
    """
    name = "make_reduction_inames_unique"
    only = None
    if inames is not None:
        only = frozenset(name_list(inames, name, "inames"))
        for i in sorted(only):
            check_iname(kernel, i, name)
    match = parse_stack_match(within)
    mapper = _Uniquifier(UniqueNameGenerator(kernel_names(kernel)), only)
    stmts = []
    for s in kernel.statements:
        mapper.selected = match(kernel, s)
        stmts.append(map_statement_expressions(s, mapper))
    if not mapper.renamed:
        return kernel
    for old, _ in mapper.renamed:
        check_no_nested(kernel, old, name)
    domains = kernel.domains
    for old, new in mapper.renamed:
        home = kernel.domain_index_of(old)
        domains = tuple(isl_glue.duplicate_dim(d, old, new) if k == home else d
                        for k, d in enumerate(domains))
    return replace(kernel, statements=tuple(stmts), domains=domains)


# ---------------------------------------------------------------------------------------------
# adding inames to statements


@transform()
def add_inames_to_insn(kernel: Kernel, inames: str | Iterable[str], insn_match: Any) -> Kernel:
    """Put the statements matched by `insn_match` inside the loops over `inames` as well.

    Example::

        before: out[i] = a[i]    {inames=i}
        add_inames_to_insn(knl, "j", "id:s0")
        after:  out[i] = a[i]    {inames=i:j}
    """
    name = "add_inames_to_insn"
    added = frozenset(name_list(inames, name, "inames"))
    for i in sorted(added):
        check_iname(kernel, i, name)
    match = parse_match(insn_match)
    for s in match.filter(kernel):
        clash = sorted(added & collect(statement_expressions(s)).reduction_inames)
        if clash:
            raise TransformError(f"{name}: statement {s.id!r} reduces over {clash[0]!r}; it "
                                 "cannot also be inside its loop", s.span)
        try:
            isl_glue.combined_domain(kernel.domains, s.within_inames | added)
        except DomainError as e:
            raise TransformError(f"{name}: statement {s.id!r}: {e.message}", s.span) from None
    return map_within_inames(kernel, lambda s: (
        s.within_inames | added if match(kernel, s) else s.within_inames))


@transform()
def add_inames_for_unused_hw_axes(kernel: Kernel, within: Any = None) -> Kernel:
    """Add to each statement matched by `within` the inames of the hardware axes (``l.N``,
    ``g.N``) that other statements use and it does not.

    Each such axis must be used by a single iname in the kernel; a statement missing a local
    axis while an ``l.auto`` iname exists is an error.  Example::

        before: out[i] = a[i] {inames=i} ; b[0] = 1 {inames=}      i: l.0
        add_inames_for_unused_hw_axes(knl)
        after:  b[0] = 1 {inames=i}
    """
    name = "add_inames_for_unused_hw_axes"
    axes = _axis_inames(kernel, name)
    match = parse_match(within)
    auto = sorted(i for s in kernel.statements for i in s.within_inames
                  if LocalAutoTag() in kernel.tags_of(i))

    def extended(s: Statement) -> frozenset[str]:
        if not match(kernel, s):
            return s.within_inames
        have = {t for i in s.within_inames for t in kernel.tags_of(i)}
        missing = {t: i for t, i in axes.items() if t not in have}
        if auto and any(isinstance(t, LocalTag) for t in missing):
            raise TransformError(f"{name}: statement {s.id!r} misses a local axis while "
                                 f"iname {auto[0]!r} is tagged l.auto; tag it l.N first",
                                 s.span)
        return s.within_inames | frozenset(missing.values())

    return map_within_inames(kernel, extended)


def _axis_inames(kernel: Kernel, name: str) -> dict[InameTag, str]:
    """Hardware axis -> the one iname statements use for it."""
    found: dict[InameTag, set[str]] = {}
    for s in kernel.statements:
        for i in s.within_inames:
            for t in kernel.tags_of(i):
                if isinstance(t, (LocalTag, GroupTag)):
                    found.setdefault(t, set()).add(i)
    out = {}
    for tag in sorted(found, key=str):
        if len(found[tag]) > 1:
            raise TransformError(f"{name}: axis {tag} is used by several inames "
                                 f"({', '.join(sorted(found[tag]))}); only one iname per "
                                 "hardware axis is supported")
        out[tag] = next(iter(found[tag]))
    return out
