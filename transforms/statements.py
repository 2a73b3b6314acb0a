"""Manipulating statements ("instructions"): set_instruction_priority, add_dependency,
remove_instructions, replace_instruction_ids, tag_instructions, add_nosync, add_barrier.

Statement arguments (`insn_match`, `source`, `depends_on`, ...) are match expressions of
`transforms.match` (a bare id is a match too); a set of ids is accepted where the reference
allows one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from translator.diagnostics import TransformError
from translator.ir.kernel import Kernel
from translator.ir.statements import BarrierInstruction, Statement
from translator.ir.util import UniqueNameGenerator

from transforms.common import check_iname, name_list
from transforms.match import parse_match
from transforms.registry import transform

_SCOPES = ("local", "global", "any")


def _matched_ids(kernel: Kernel, match: Any, name: str, what: str) -> list[str]:
    """Ids of the statements `match` selects (kernel order); selecting none is an error."""
    ids = [s.id for s in parse_match(match).filter(kernel)]
    if not ids:
        raise TransformError(f"{name}: {what} {match!r} matches no statement of kernel "
                             f"{kernel.name!r}")
    return ids


def _with_statements(kernel: Kernel, stmts: Iterable[Statement]) -> Kernel:
    stmts = tuple(stmts)
    if all(a is b for a, b in zip(stmts, kernel.statements)) and \
            len(stmts) == len(kernel.statements):
        return kernel
    return replace(kernel, statements=stmts)


# ---------------------------------------------------------------------------------------------
# priority, dependencies, tags


@transform()
def set_instruction_priority(kernel: Kernel, insn_match: Any, priority: int) -> Kernel:
    """Set the scheduling priority of the matched statements (higher goes first when the
    dependencies allow it).  Example::

        before: s0 {priority=0}
        set_instruction_priority(knl, "id:s0", 5)
        after:  s0 {priority=5}
    """
    if isinstance(priority, bool) or not isinstance(priority, int):
        raise TransformError(f"set_instruction_priority: priority must be an integer, got "
                             f"{priority!r}")
    ids = set(_matched_ids(kernel, insn_match, "set_instruction_priority", "insn_match"))
    return _with_statements(kernel, (
        replace(s, priority=priority) if s.id in ids and s.priority != priority else s
        for s in kernel.statements))


@transform()
def add_dependency(kernel: Kernel, insn_match: Any, depends_on: Any) -> Kernel:
    """Make the statements matched by `insn_match` depend on those matched by `depends_on`
    (a statement never depends on itself).  A dependency cycle is an error.  Example::

        before: s1 {dep=}
        add_dependency(knl, "id:s1", "id:s0")
        after:  s1 {dep=s0}
    """
    name = "add_dependency"
    ids = set(_matched_ids(kernel, insn_match, name, "insn_match"))
    deps = frozenset(_matched_ids(kernel, depends_on, name, "depends_on"))
    result = _with_statements(kernel, (
        replace(s, depends_on=s.depends_on | (deps - {s.id}))
        if s.id in ids and not (deps - {s.id}) <= s.depends_on else s
        for s in kernel.statements))
    closure = result.dependency_closure()
    for sid in sorted(ids):
        if sid in closure[sid]:
            raise TransformError(f"{name}: statement {sid!r} would depend on itself "
                                 "(a dependency cycle)", kernel.statement(sid).span)
    return result


@transform()
def tag_instructions(kernel: Kernel, new_tag: str, within: Any = None) -> Kernel:
    """Add the tag `new_tag` to the statements matched by `within` (default: all).

    Example::

        before: s0 {tags=}
        tag_instructions(knl, "hot", "id:s0")
        after:  s0 {tags=hot}
    """
    if not isinstance(new_tag, str) or not new_tag.isidentifier():
        raise TransformError(f"tag_instructions: the tag must be an identifier, got "
                             f"{new_tag!r}")
    match = parse_match(within)
    return _with_statements(kernel, (
        replace(s, tags=s.tags | {new_tag}) if match(kernel, s) and new_tag not in s.tags
        else s for s in kernel.statements))


# ---------------------------------------------------------------------------------------------
# removing and re-pointing statements


def remove_statements(kernel: Kernel, ids: set[str]) -> Kernel:
    """Drop the statements `ids`; a statement that depended on a dropped one depends on that
    one's dependencies instead (transitively), and no-sync entries naming them go."""
    if not ids:
        return kernel
    direct = {s.id: set(s.depends_on) for s in kernel.statements}

    def resolved(deps: Iterable[str], seen: frozenset[str]) -> set[str]:
        out: set[str] = set()
        for d in deps:
            if d not in ids:
                out.add(d)
            elif d not in seen:
                out |= resolved(direct.get(d, ()), seen | {d})
        return out

    kept = []
    for s in kernel.statements:
        if s.id in ids:
            continue
        deps = frozenset(resolved(s.depends_on, frozenset()) - {s.id})
        nosync = frozenset(e for e in s.no_sync_with if e[0] not in ids)
        kept.append(s if (deps, nosync) == (s.depends_on, s.no_sync_with)
                    else replace(s, depends_on=deps, no_sync_with=nosync))
    return replace(kernel, statements=tuple(kept))


@transform()
def remove_instructions(kernel: Kernel, insn_ids: Any) -> Kernel:
    """Remove statements (a set of ids or a match expression).

    Dependencies through removed statements are kept transitively: if s2 depends on s1,
    which depends on s0, removing s1 makes s2 depend on s0.  Example::

        before: s0 ; s1 {dep=s0} ; s2 {dep=s1}
        remove_instructions(knl, {"s1"})
        after:  s0 ; s2 {dep=s0}
    """
    name = "remove_instructions"
    if isinstance(insn_ids, (set, frozenset, list, tuple)):
        ids = set(insn_ids)
        known = {s.id for s in kernel.statements}
        unknown = sorted(i for i in ids if i not in known)
        if unknown:
            raise TransformError(f"{name}: no statement with id {unknown[0]!r} in kernel "
                                 f"{kernel.name!r}")
    else:
        ids = {s.id for s in parse_match(insn_ids).filter(kernel)}
    return remove_statements(kernel, ids)


@transform()
def replace_instruction_ids(kernel: Kernel, replacements: Mapping[str, Any]) -> Kernel:
    """Point dependencies and no-sync entries naming an old id at its replacement(s).

    `replacements` maps an id to a list of ids (or one id); used after a statement was
    replaced by others.  Example::

        before: s2 {dep=s1}
        replace_instruction_ids(knl, {"s1": ["s1a", "s1b"]})
        after:  s2 {dep=s1a:s1b}
    """
    name = "replace_instruction_ids"
    if not isinstance(replacements, Mapping):
        raise TransformError(f"{name}: replacements must map ids to lists of ids, got "
                             f"{replacements!r}")
    known = {s.id for s in kernel.statements}
    table = {}
    for old, new in replacements.items():
        news = name_list(new, name, f"replacements of {old!r}")
        bad = sorted(n for n in news if n not in known)
        if bad:
            raise TransformError(f"{name}: replacement {bad[0]!r} (for {old!r}) is not a "
                                 "statement id")
        table[old] = news
    return _with_statements(kernel, (_repointed(s, table) for s in kernel.statements))


def _repointed(s: Statement, table: Mapping[str, tuple[str, ...]]) -> Statement:
    deps = frozenset(n for d in s.depends_on for n in table.get(d, (d,)))
    nosync = frozenset((n, scope) for i, scope in s.no_sync_with for n in table.get(i, (i,)))
    if (deps, nosync) == (s.depends_on, s.no_sync_with):
        return s
    return replace(s, depends_on=deps - {s.id}, no_sync_with=nosync)


# ---------------------------------------------------------------------------------------------
# synchronization


@transform()
def add_nosync(kernel: Kernel, scope: str, source: Any, sink: Any, bidirectional: bool = False,
               force: bool = False, empty_ok: bool = False) -> Kernel:
    """Declare that `sink` needs no `scope` synchronization ("local", "global" or "any")
    with `source`.

    Added only where the sink depends (directly or not) on the source or the two are in
    conflicting groups, unless `force`; adding nothing is an error unless `empty_ok`.  With
    `bidirectional` the source gets the entry too.  Example::

        before: s1 {dep=s0}
        add_nosync(knl, "local", "id:s0", "id:s1")
        after:  s1 {dep=s0, nosync=s0@local}
    """
    name = "add_nosync"
    if scope not in _SCOPES:
        raise TransformError(f"{name}: unknown scope {scope!r} (expected local, global or "
                             "any)")
    sources = _matched_ids(kernel, source, name, "source")
    sinks = _matched_ids(kernel, sink, name, "sink")
    closure = kernel.dependency_closure()
    stmts = kernel.id_to_statement
    added: dict[str, set[tuple[str, str]]] = {}
    for snk in sinks:
        for src in sources:
            if src == snk and not force:   # a statement only races with itself in loops
                continue
            if force or src in closure[snk] or _conflicting(stmts[src], stmts[snk]):
                added.setdefault(snk, set()).add((src, scope))
                if bidirectional:
                    added.setdefault(src, set()).add((snk, scope))
    if not added and not empty_ok:
        raise TransformError(f"{name}: no nosync entry was added: {sink!r} does not depend "
                             f"on {source!r} and they are not in conflicting groups (pass "
                             "force=True to add it anyway, or empty_ok=True)")
    return _with_statements(kernel, (
        replace(s, no_sync_with=s.no_sync_with | added[s.id])
        if s.id in added and not added[s.id] <= s.no_sync_with else s
        for s in kernel.statements))


def _conflicting(a: Statement, b: Statement) -> bool:
    return bool(a.groups & b.conflicts_with_groups or b.groups & a.conflicts_with_groups)


@transform()
def add_barrier(kernel: Kernel, insn_before: Any = "", insn_after: Any = "",
                id_based_on: str | None = None, tags: Any = None,
                synchronization_kind: str = "global", mem_kind: str | None = None,
                within_inames: Any = None) -> Kernel:
    """Insert a barrier after the statements matched by `insn_before` and before those
    matched by `insn_after` (empty or None: no dependency on that side).

    `synchronization_kind` is "local" or "global"; `mem_kind` (default: the same) is the
    memory fenced.  Example::

        before: s0 ; s1
        add_barrier(knl, "id:s0", "id:s1", synchronization_kind="local")
        after:  s0 ; barrier {dep=s0, lbarrier} ; s1 {dep=barrier}
    """
    name = "add_barrier"
    for what, value in (("synchronization_kind", synchronization_kind), ("mem_kind", mem_kind)):
        if value is not None and value not in ("local", "global"):
            raise TransformError(f"{name}: {what} must be 'local' or 'global', got {value!r}")
    before = _matched_ids(kernel, insn_before, name, "insn_before") if insn_before else []
    after = _matched_ids(kernel, insn_after, name, "insn_after") if insn_after else []
    inames = frozenset(name_list(within_inames, name, "within_inames"))
    for i in sorted(inames):
        check_iname(kernel, i, name)
    base = id_based_on if id_based_on is not None else "barrier"
    if not isinstance(base, str) or not base.isidentifier():
        raise TransformError(f"{name}: id_based_on must be an identifier, got {base!r}")
    bid = UniqueNameGenerator(s.id for s in kernel.statements)(base)
    barrier = BarrierInstruction(
        id=bid, within_inames=inames, depends_on=frozenset(before),
        tags=frozenset(name_list(tags, name, "tags")),
        synchronization_kind=synchronization_kind, mem_kind=mem_kind or synchronization_kind)
    if set(before) & set(after):
        raise TransformError(f"{name}: statement {sorted(set(before) & set(after))[0]!r} is "
                             "both before and after the barrier (a dependency cycle)")
    stmts = [replace(s, depends_on=s.depends_on | {bid}) if s.id in after else s
             for s in kernel.statements]
    # declared right after the last statement before it, so printed kernels read in order
    ids = [s.id for s in stmts]
    pos = (max(ids.index(i) for i in before) + 1 if before
           else min(ids.index(i) for i in after) if after else len(stmts))
    return replace(kernel, statements=(*stmts[:pos], barrier, *stmts[pos:]))
