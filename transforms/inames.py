"""Iname wrangling: tags, loop priorities, renaming, removing unused inames.

Tags follow the reference's table (``for``, ``ord``, ``l.N``, ``g.N``, ``l.auto``, ``unr``,
``ilp``/``ilp.unr``, ``ilp.seq``, ``vec``) plus ``like.INAME`` (the tag INAME has) and
``unused.g``/``unused.l`` (the lowest group/local axis no statement uses yet); the latter two
are resolved here and never stored.  An iname has at most one tag.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pymbolic.primitives as p

from translator.diagnostics import TransformError
from translator.ir import isl_glue
from translator.ir.expr import Reduction
from translator.ir.kernel import Kernel
from translator.ir.tags import GroupTag, HardwareAxisTag, InameTag, LocalTag
from translator.records import replace

from transforms.common import (Rewriter, check_iname, collect, drop_inames, kernel_names,
                               map_within_inames, name_list, parse_tag_arg,
                               replace_in_priorities, rewrite_statements,
                               statement_expressions, suggestion, used_inames)
from transforms.match import glob_matches, parse_match, parse_stack_match
from transforms.registry import transform

TagSpec = str | InameTag | None

# ---------------------------------------------------------------------------------------------
# tags


def find_unused_axis_tag(kernel: Kernel, kind: str | type, insn_match: Any = None
                         ) -> HardwareAxisTag:
    """The lowest ``g.N`` (kind "g") or ``l.N`` (kind "l") axis that no iname of the
    statements matched by `insn_match` is tagged with."""
    cls = _axis_class(kind)
    match = parse_match(insn_match)
    used: set[int] = set()
    for s in match.filter(kernel):
        inames = s.within_inames | collect(statement_expressions(s)).reduction_inames
        for iname in inames:
            used |= {t.axis for t in kernel.tags_of(iname) if type(t) is cls}
    axis = 0
    while axis in used:
        axis += 1
    return cls(axis)


def _axis_class(kind: str | type) -> type[HardwareAxisTag]:
    classes = {"g": GroupTag, "group": GroupTag, "l": LocalTag, "local": LocalTag}
    if isinstance(kind, type) and kind in (GroupTag, LocalTag):
        return kind
    if isinstance(kind, str) and kind in classes:
        return classes[kind]
    raise TransformError(f"unknown hardware axis kind {kind!r} (expected 'g' or 'l')")


def resolve_tag(kernel: Kernel, spec: TagSpec, transform_name: str, what: str
                ) -> InameTag | None:
    """A tag spec (string of the table, ``like.X``, ``unused.g/l``, tag object, None) ->
    the `InameTag` to store, or None for 'no tag'."""
    if isinstance(spec, str):
        text = spec.strip()
        if text.startswith("like."):
            other = check_iname(kernel, text[5:], transform_name, f"{what} 'like.' iname")
            tags = kernel.tags_of(other)
            return next(iter(tags)) if tags else None
        if text in ("unused.g", "unused.l"):
            return find_unused_axis_tag(kernel, text[-1])
    return parse_tag_arg(spec, transform_name, what)


def check_tag_syntax(spec: TagSpec, transform_name: str, what: str) -> None:
    """Reject a malformed tag before any work is done (``like.``/``unused.`` pass)."""
    if isinstance(spec, str) and (spec.strip().startswith("like.")
                                  or spec.strip() in ("unused.g", "unused.l")):
        return
    parse_tag_arg(spec, transform_name, what)


def set_tag(kernel: Kernel, iname: str, tag: InameTag | None, *, force: bool = False,
            transform_name: str = "tag_inames") -> Kernel:
    """Give `iname` the tag `tag` (None: leave it).  A different existing tag is an error
    unless `force`, which replaces it."""
    if tag is None:
        return kernel
    old = kernel.tags_of(iname)
    if tag in old:
        return kernel
    if old and not force:
        have = ", ".join(sorted(str(t) for t in old))
        raise TransformError(f"{transform_name}: iname {iname!r} is already tagged {have!r}; "
                             f"cannot also tag it {str(tag)!r} (an iname has one "
                             "implementation tag; pass force=True to replace it)")
    return replace(kernel, iname_tags=kernel.iname_tags.set(iname, frozenset([tag])))


def _tag_pairs(iname_to_tag: Any) -> list[tuple[str, TagSpec]]:
    """Normalise the accepted forms to (iname-or-glob, tag spec) pairs, in order."""
    if isinstance(iname_to_tag, str):
        pairs = []
        for item in (s.strip() for s in iname_to_tag.split(",")):
            if not item:
                continue
            if ":" not in item:
                raise TransformError(f"tag_inames: {item!r} has no ':' (expected "
                                     "'iname:tag', e.g. 'i:l.0, j:g.0')")
            name, tag = item.split(":", 1)
            pairs.append((name.strip(), tag.strip()))
        return pairs
    if isinstance(iname_to_tag, Mapping):
        items = list(iname_to_tag.items())
    elif isinstance(iname_to_tag, Iterable):
        items = list(iname_to_tag)
    else:
        raise TransformError(f"tag_inames: expected 'iname:tag, ...', a dict or (iname, tag) "
                             f"pairs, got {iname_to_tag!r}")
    out: list[tuple[str, TagSpec]] = []
    for pair in items:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2 and isinstance(pair[0], str)):
            raise TransformError(f"tag_inames: expected (iname, tag) pairs, got {pair!r}")
        name, tags = pair
        if isinstance(tags, Iterable) and not isinstance(tags, (str, InameTag)):
            out.extend((name, t) for t in tags)
        else:
            out.append((name, tags))
    return out


@transform()
def tag_inames(kernel: Kernel, iname_to_tag: Any, force: bool = False,
               ignore_nonexistent: bool = False) -> Kernel:
    """Tag inames with implementation tags.

    `iname_to_tag`: ``"i:l.0, j:g.0"``, a dict, or (iname, tag) pairs; a tag may be a list of
    tags; an iname may be a glob with ``*``/``?``.  Example::

        before: iname_tags = {}
        tag_inames(knl, "i_inner:l.0, i_outer:g.0")
        after:  iname_tags = {i_inner: l.0, i_outer: g.0}
    """
    result = kernel
    for pattern, spec in _tag_pairs(iname_to_tag):
        check_tag_syntax(spec, "tag_inames", f"tag for {pattern!r}")
        for iname in _expand_iname_glob(kernel, pattern, ignore_nonexistent):
            tag = resolve_tag(result, spec, "tag_inames", f"tag for {iname!r}")
            result = set_tag(result, iname, tag, force=force)
    return result


def _expand_iname_glob(kernel: Kernel, pattern: str, ignore_nonexistent: bool) -> list[str]:
    if any(c in pattern for c in "*?["):
        return sorted(n for n in kernel.all_inames if glob_matches(pattern, n))
    if pattern not in kernel.all_inames:
        if ignore_nonexistent:
            return []
        raise TransformError(f"tag_inames: unknown iname {pattern!r}"
                             + suggestion(pattern, kernel.all_inames))
    return [pattern]


@transform()
def untag_inames(kernel: Kernel, iname_to_untag: str, tag_type: Any) -> Kernel:
    """Remove the tags of an iname that match `tag_type`.

    `tag_type`: a tag class such as `LocalTag`, a tag, a tag string such as ``"l.0"``, or
    ``"l"``/``"g"`` for any local/group axis.  Example::

        before: iname_tags = {i: l.0}
        untag_inames(knl, "i", "l")
        after:  iname_tags = {}
    """
    check_iname(kernel, iname_to_untag, "untag_inames")
    matches = _tag_matcher(tag_type)
    old = kernel.tags_of(iname_to_untag)
    kept = frozenset(t for t in old if not matches(t))
    if kept == old:
        return kernel
    tags = (kernel.iname_tags.set(iname_to_untag, kept) if kept
            else kernel.iname_tags.delete(iname_to_untag))
    return replace(kernel, iname_tags=tags)


def _tag_matcher(tag_type: Any):
    if isinstance(tag_type, type) and issubclass(tag_type, InameTag):
        return lambda t: isinstance(t, tag_type)
    if isinstance(tag_type, str) and tag_type in ("g", "group", "l", "local"):
        cls = _axis_class(tag_type)
        return lambda t: isinstance(t, cls)
    tag = parse_tag_arg(tag_type, "untag_inames", "tag_type")
    return lambda t: t == tag


# ---------------------------------------------------------------------------------------------
# loop priorities


@transform()
def prioritize_loops(kernel: Kernel, loop_priority: str | Iterable[str]) -> Kernel:
    """Ask for loops to nest in the given order, outermost first (advisory).

    Repeated calls add constraints that together form a partial order; a contradiction is an
    error.  Example::

        before: loop_priority = {}
        prioritize_loops(knl, "i,j")
        after:  loop_priority = {(i, j)}
    """
    prio = name_list(loop_priority, "prioritize_loops", "loop_priority")
    for iname in prio:
        check_iname(kernel, iname, "prioritize_loops")
    if len(set(prio)) != len(prio):
        raise TransformError(f"prioritize_loops: an iname appears twice in {prio!r}")
    if len(prio) < 2 or prio in kernel.loop_priority:
        return kernel
    new = kernel.loop_priority | {prio}
    _check_acyclic(new)
    return replace(kernel, loop_priority=new)


def _check_acyclic(priorities: Iterable[tuple[str, ...]]) -> None:
    after: dict[str, set[str]] = {}
    for prio in priorities:
        for k, a in enumerate(prio):
            after.setdefault(a, set()).update(prio[k + 1:])
    for start in sorted(after):
        seen, todo = set(), list(after[start])
        while todo:
            n = todo.pop()
            if n == start:
                raise TransformError(f"prioritize_loops: contradictory loop priorities: "
                                     f"{start!r} must be both outside and inside {n!r}'s "
                                     "nest (a cycle)")
            if n not in seen:
                seen.add(n)
                todo.extend(after.get(n, ()))


# ---------------------------------------------------------------------------------------------
# renaming


@transform()
def rename_iname(kernel: Kernel, old_iname: str, new_iname: str, existing_ok: bool = False,
                 within: Any = None) -> Kernel:
    """Rename an iname (in the statements matched by `within`, default all).

    If `new_iname` exists (needs `existing_ok`), both must iterate over the same domain; the
    old iname stays for statements not matched.  Example::

        before: {[i]: 0<=i<n}    out[i] = a[i]
        rename_iname(knl, "i", "k")
        after:  {[k]: 0<=k<n}    out[k] = a[k]
    """
    return _rename(kernel, [old_iname], new_iname, existing_ok, within, "rename_iname")


@transform()
def rename_inames(kernel: Kernel, old_inames: Iterable[str], new_iname: str,
                  existing_ok: bool = False, within: Any = None) -> Kernel:
    """Rename several inames to one new iname, merging their loops.

    They must iterate over the same domain and no statement may be inside two of them.
    Example::

        before: {[i]: 0<=i<n} {[k]: 0<=k<n}    a[i] = 1 ; b[k] = 2
        rename_inames(knl, ["i", "k"], "j")
        after:  {[j]: 0<=j<n}                  a[j] = 1 ; b[j] = 2
    """
    olds = name_list(old_inames, "rename_inames", "old_inames")
    return _rename(kernel, list(olds), new_iname, existing_ok, within, "rename_inames")


def _rename(kernel: Kernel, olds: list[str], new: str, existing_ok: bool, within: Any,
            name: str) -> Kernel:
    exists = _check_rename_args(kernel, olds, new, existing_ok, name)
    match = parse_stack_match(within)
    selected = [s for s in kernel.statements if match(kernel, s)]
    if not selected:
        return kernel
    for s in selected:
        if len(s.within_inames & (set(olds) | {new})) > 1:
            raise TransformError(f"{name}: statement {s.id!r} is inside several of the inames "
                                 "being merged; nested loops cannot be merged", s.span)
    _check_same_domains(kernel, olds, new if exists else olds[0], name)
    result = _rename_in_statements(kernel, olds, new, {s.id for s in selected})
    used = used_inames(result)
    creator = None if exists else olds[0]
    if creator is not None:
        # nested domains bounded by the creator are renamed (or copied) along with it
        result = _create_renamed(result, creator, new, keep=creator in used)
    bounding = bounding_inames(result)
    gone = [o for o in olds if o not in used and (o == creator or o not in bounding)]
    result = replace(result, loop_priority=replace_in_priorities(
        result.loop_priority, {o: (new,) for o in gone}))
    return drop_inames(result, gone) if gone else result


def _check_rename_args(kernel: Kernel, olds: list[str], new: Any, existing_ok: bool,
                       name: str) -> bool:
    if not olds:
        raise TransformError(f"{name}: no inames to rename")
    for o in olds:
        check_iname(kernel, o, name)
    if not isinstance(new, str) or not new.isidentifier():
        raise TransformError(f"{name}: new iname must be an identifier, got {new!r}")
    if new in olds:
        raise TransformError(f"{name}: new iname {new!r} is one of the inames being renamed")
    if new in kernel_names(kernel) - kernel.all_inames:
        raise TransformError(f"{name}: {new!r} is already a variable of kernel "
                             f"{kernel.name!r}, not an iname")
    exists = new in kernel.all_inames
    if exists and not existing_ok:
        raise TransformError(f"{name}: iname {new!r} already exists (pass existing_ok=True "
                             "to merge into it)")
    return exists


def _check_same_domains(kernel: Kernel, olds: list[str], ref: str, name: str) -> None:
    for o in olds:
        if o != ref and not isl_glue.iname_domains_equal(kernel.domains, o, ref):
            raise TransformError(f"{name}: inames {o!r} and {ref!r} do not iterate over the "
                                 "same domain")


def _rename_in_statements(kernel: Kernel, olds: list[str], new: str, ids: set[str]) -> Kernel:
    old_set = set(olds)

    def reduction_inames(red: Reduction) -> tuple[str, ...] | None:
        if not old_set & set(red.inames):
            return None
        out: list[str] = []
        for i in red.inames:
            j = new if i in old_set else i
            if j not in out:
                out.append(j)
        return tuple(out)

    rewriter = Rewriter({o: p.Variable(new) for o in olds}, reduction_inames=reduction_inames)
    result = rewrite_statements(kernel, rewriter, lambda s: s.id in ids)
    return map_within_inames(result, lambda s: (
        (s.within_inames - old_set) | {new}
        if s.id in ids and s.within_inames & old_set else s.within_inames))


def _create_renamed(kernel: Kernel, old: str, new: str, *, keep: bool) -> Kernel:
    """Make iname `new` a copy of `old` (rename it outright if `old` is no longer needed);
    `new` takes over `old`'s tags."""
    op = isl_glue.duplicate_dim if keep else isl_glue.rename_dim
    domains = tuple(op(d, old, new) for d in kernel.domains)
    tags = kernel.iname_tags
    if old in tags:
        tags = tags.set(new, tags[old])
    return replace(kernel, domains=domains, iname_tags=tags)


# ---------------------------------------------------------------------------------------------
# removing inames


def bounding_inames(kernel: Kernel) -> frozenset[str]:
    """Inames that are parameters of some domain (they bound a nested domain)."""
    inames = kernel.all_inames
    return frozenset(prm for d in kernel.domains for prm in isl_glue.params_of(d)
                     if prm in inames)


@transform()
def remove_unused_inames(kernel: Kernel, inames: str | Iterable[str] | None = None) -> Kernel:
    """Project out inames (default: all) that no statement uses.

    Used means in some statement's `within_inames` or a reduction.  Constraints an unused
    iname puts on other inames of its domain persist, existentially; an iname that bounds a
    nested domain counts as used.  Example::

        before: {[i, j]: 0<=i<n and 0<=j<m}    out[i] = a[i]   {inames=i}
        remove_unused_inames(knl)
        after:  {[i]: 0<=i<n and m>0}          out[i] = a[i]
    """
    if inames is None:
        candidates = sorted(kernel.all_inames)
    else:
        candidates = list(name_list(inames, "remove_unused_inames", "inames"))
        for i in candidates:
            check_iname(kernel, i, "remove_unused_inames")
    used = used_inames(kernel) | bounding_inames(kernel)
    unused = [i for i in candidates if i not in used]
    return drop_inames(kernel, unused) if unused else kernel

