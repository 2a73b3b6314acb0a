"""Scheduling: a kernel -> a loop tree (sequential loops, statements, barriers).

Hardware-parallel inames (``l.N``, ``g.N``, ``l.auto``) are not loops: every work item runs the
tree with its own values of them.  Every other iname of a statement is a loop around it; unroll
tags (``unr``, ``ilp``, ``ilp.unr``, ``vec``) make an unrolled loop, ``ilp.seq`` an innermost loop.

Order of statements: a topological order of `depends_on`; among the statements that are ready,
the scheduler prefers one that stays inside the loops already open (loops are entered once where
possible, the reference's rule), then one that does not open a loop some of whose statements
still wait for work outside it, then higher `priority`, then declaration order.  When the
dependencies force it, a loop is closed and re-entered later (the nest is split).

Nesting order of loops: one global order of the sequential inames.  It must satisfy
`loop_priority` and put a loop inside the loops over the inames its bounds name.  Then, where
they agree with those and with each other: an iname inside another that every statement
within it is also within, and some statement without it (the statements' ``inames=`` sets,
whatever the order of the domains: ``acc = 0 {inames=d}`` before ``acc = acc + a[n, d]
{inames=d:n}`` puts d outside n; not for unrolled inames); a child domain's inames inside its ancestors' (where
`loop_priority` puts a child's loop outside an ancestor's that does not bound it, as the
lowering of a reduction over a mapped loop does, priority wins).  Last, unroll/``ilp.seq``
innermost, and otherwise declaration order in the domains.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

from translator.diagnostics import Note, SchedulingError
from translator.ir.expr import dependencies
from translator.ir.isl_glue import bounding_inames, domain_parents, inames_of, params_of
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement, _assignee_name, _subscript_indices
from translator.ir.tags import (
    GroupTag,
    HardwareAxisTag,
    IlpSeqTag,
    LocalAutoTag,
    LocalTag,
    is_unrolled,
)
from translator.records import dataclass


@dataclass(frozen=True, slots=True, kw_only=True)
class LoopNode:
    """A sequential loop over `iname` (emitted once per value when `unrolled`)."""

    iname: str
    body: tuple[ScheduleNode, ...]
    unrolled: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class StatementNode:
    statement_id: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BarrierNode:
    """A work-group barrier; `kind` "local" or "global" (the memory fence)."""

    kind: str = "local"
    reason: str = ""


ScheduleNode = LoopNode | StatementNode | BarrierNode


@dataclass(frozen=True, slots=True, kw_only=True)
class Schedule:
    """The loop tree of `kernel` (the kernel as scheduled: reductions already lowered).

    `hardware` maps each hardware-parallel iname to its axis tag (``l.auto`` resolved).
    """

    kernel: Kernel
    body: tuple[ScheduleNode, ...]
    hardware: dict[str, HardwareAxisTag]


# ---------------------------------------------------------------------------------------------
# iname kinds

def resolve_hardware_axes(kernel: Kernel) -> dict[str, HardwareAxisTag]:
    """Hardware axis of every hardware-parallel iname; ``l.auto`` takes the lowest local axes
    nobody uses, in iname-name order."""
    out: dict[str, HardwareAxisTag] = {}
    auto: list[str] = []
    for iname in sorted(kernel.iname_tags):
        for tag in kernel.tags_of(iname):
            if isinstance(tag, (LocalTag, GroupTag)):
                out[iname] = tag
            elif isinstance(tag, LocalAutoTag):
                auto.append(iname)
    used = {t.axis for t in out.values() if isinstance(t, LocalTag)}
    free = [axis for axis in range(3) if axis not in used]
    for iname in auto:
        if not free:
            raise SchedulingError(f"iname {iname!r} is tagged l.auto but all three local axes "
                                  "are taken", kernel.span)
        out[iname] = LocalTag(free.pop(0))
    for iname, tag in out.items():
        if tag.axis > 2:
            raise SchedulingError(f"iname {iname!r}: hardware axis {tag} does not exist "
                                  "(OpenCL has axes 0, 1 and 2)", kernel.span)
    return out


def loop_inames(kernel: Kernel, stmt: Statement, hardware: dict[str, HardwareAxisTag]
                ) -> frozenset[str]:
    """The inames of `stmt` realised as (possibly unrolled) loops."""
    return frozenset(i for i in stmt.within_inames if i not in hardware)


def is_unrolled_iname(kernel: Kernel, iname: str) -> bool:
    return any(is_unrolled(t) for t in kernel.tags_of(iname))


def _innermost_class(kernel: Kernel, iname: str) -> int:
    """0: ordinary loop, 1: unrolled (prefer inner), 2: ilp.seq (innermost)."""
    tags = kernel.tags_of(iname)
    if any(isinstance(t, IlpSeqTag) for t in tags):
        return 2
    if any(is_unrolled(t) for t in tags):
        return 1
    return 0


# ---------------------------------------------------------------------------------------------
# nesting order of inames

def iname_order(kernel: Kernel, inames: Sequence[str]) -> dict[str, int]:
    """A rank for each iname: outer loops first (see module docstring)."""
    decl: dict[str, int] = {}
    for d in kernel.domains:
        for n in inames_of(d):
            decl.setdefault(n, len(decl))
    inames = sorted(set(inames), key=lambda n: (decl.get(n, len(decl)), n))
    wanted = set(inames)
    edges: dict[str, set[str]] = {n: set() for n in inames}
    for prio in sorted(kernel.loop_priority):
        chain = [n for n in prio if n in wanted]
        for a, b in zip(chain, chain[1:]):
            edges[a].add(b)
    forest = _forest_edges(kernel, wanted, edges)
    for outer, inner in _statement_edges(kernel, inames) + forest:
        if not _reaches(edges, inner, outer):
            edges[outer].add(inner)
    return _toposort_inames(kernel, inames, edges, decl)


def _statement_edges(kernel: Kernel, inames: list[str]) -> list[tuple[str, str]]:
    """(outer, inner) pairs of ordinary loops where every statement inside `inner` is inside
    `outer` and some statement is inside `outer` alone: that one runs in the `outer` loop
    around the `inner` one (``acc = 0 {inames=d}; acc = acc + a[n, d] {inames=d:n}``: d goes
    outside n whatever the order of the domains).  Unrolled inames keep their innermost
    place (register blocking: a private accumulator per unrolled copy)."""
    loops = [n for n in inames if _innermost_class(kernel, n) == 0]
    users = {n: frozenset(s.id for s in kernel.statements if n in s.within_inames)
             for n in loops}
    return [(a, b) for a in loops for b in loops if users[b] and users[b] < users[a]]


def _forest_edges(kernel: Kernel, wanted: set[str], edges: dict[str, set[str]]
                  ) -> list[tuple[str, str]]:
    """Add to `edges` the binding edges (an iname that bounds another domain's inames goes
    outside them); return the domain forest's other (ancestor, inner) pairs, outermost first:
    kept where `loop_priority` does not put the inner loop outside (as the lowering of a
    reduction over a mapped outer loop does with the loops inside it)."""
    domains = kernel.domains
    parents = domain_parents(domains)
    soft: list[tuple[str, str]] = []
    for k, (d, bounding) in enumerate(zip(domains, bounding_inames(domains))):
        mine = [n for n in inames_of(d) if n in wanted]
        for outer in sorted(bounding & wanted):
            edges[outer].update(mine)
        j = parents[k]
        while j is not None:
            soft += [(outer, n) for outer in inames_of(domains[j])
                     if outer in wanted and outer not in bounding for n in mine]
            j = parents[j]
    return sorted(soft, key=lambda e: (_position(domains, e[0]), _position(domains, e[1])))


def _position(domains, iname: str) -> int:
    return next(k for k, d in enumerate(domains) if iname in inames_of(d))


def _reaches(edges: dict[str, set[str]], start: str, goal: str) -> bool:
    seen, todo = {start}, [start]
    while todo:
        n = todo.pop()
        if n == goal:
            return True
        todo += [m for m in edges[n] if m not in seen]
        seen.update(edges[n])
    return False


def _toposort_inames(kernel: Kernel, inames: list[str], edges: dict[str, set[str]],
                     decl: dict[str, int]) -> dict[str, int]:
    indeg = {n: 0 for n in inames}
    for a in inames:
        for b in edges[a]:
            indeg[b] += 1
    key = {n: (_innermost_class(kernel, n), decl.get(n, len(decl)), n) for n in inames}
    heap = [key[n] for n in inames if indeg[n] == 0]
    heapq.heapify(heap)
    rank: dict[str, int] = {}
    while heap:
        n = heapq.heappop(heap)[2]
        rank[n] = len(rank)
        for b in sorted(edges[n]):
            indeg[b] -= 1
            if indeg[b] == 0:
                heapq.heappush(heap, key[b])
    if len(rank) != len(inames):
        stuck = sorted(n for n in inames if n not in rank)
        raise SchedulingError("contradictory loop priorities: no nesting order satisfies them "
                              f"for inames {', '.join(stuck)}", kernel.span)
    return rank


# ---------------------------------------------------------------------------------------------
# statement order

class _Orderer:
    """Greedy topological ordering (see module docstring)."""

    def __init__(self, kernel: Kernel, nests: dict[str, tuple[str, ...]]) -> None:
        self.kernel = kernel
        self.nests = nests
        self.index = {s.id: k for k, s in enumerate(kernel.statements)}
        self.priority = {s.id: s.priority for s in kernel.statements}
        self.deps = {s.id: frozenset(s.depends_on) | _domain_writers(kernel, s)
                     for s in kernel.statements}
        self.users: dict[str, list[str]] = {s.id: [] for s in kernel.statements}
        self._check_deps()
        for s in kernel.statements:
            for d in sorted(self.deps[s.id]):
                self.users[d].append(s.id)

    def _check_deps(self) -> None:
        for s in self.kernel.statements:
            missing = sorted(d for d in s.depends_on if d not in self.index)
            if missing:
                raise SchedulingError(f"statement {s.id!r} depends on unknown statement(s) "
                                      f"{', '.join(missing)}", s.span)

    def order(self) -> list[str]:
        waiting = {sid: len(self.deps[sid] - {sid}) for sid in self.index}
        ready = {sid for sid, n in waiting.items() if n == 0}
        done: list[str] = []
        done_set: set[str] = set()
        current: tuple[str, ...] = ()
        while ready:
            sid = min(ready, key=lambda s: self._key(s, current, done_set))
            ready.discard(sid)
            done.append(sid)
            done_set.add(sid)
            current = self.nests[sid]
            for user in self.users[sid]:
                if user == sid:
                    continue
                waiting[user] -= 1
                if waiting[user] == 0:
                    ready.add(user)
        if len(done) != len(self.index):
            self._raise_cycle(done_set)
        return done

    def _key(self, sid: str, current: tuple[str, ...], done: set[str]) -> tuple:
        nest = self.nests[sid]
        shared = _common_prefix(nest, current)
        # every loop it opens counts: entering an inner one whose statements still wait for
        # work outside it would split that loop (and a private value flowing through it)
        blocked = int(any(self._loop_blocked(nest[:k], done)
                          for k in range(shared + 1, len(nest) + 1)))
        return (-shared, blocked, -self.priority[sid], self.index[sid])

    def _loop_blocked(self, prefix: tuple[str, ...], done: set[str]) -> bool:
        """Whether some pending statement inside loops `prefix` waits for a pending statement
        outside them (entering now would force the loop to be split)."""
        group = {s for s, nest in self.nests.items()
                 if s not in done and nest[:len(prefix)] == prefix}
        return any(d not in done and d not in group for s in group for d in self.deps[s])

    def _raise_cycle(self, done: set[str]) -> None:
        pending = sorted((s for s in self.index if s not in done), key=self.index.get)
        cycle = _find_cycle(pending, self.deps, done)
        stmts = self.kernel.id_to_statement
        span = stmts[cycle[0]].span if cycle else None
        notes = tuple(Note(f"statement {c!r} is here", stmts[c].span)
                      for c in cycle if stmts[c].span is not None)
        raise SchedulingError("dependency cycle between statements "
                              + " -> ".join(cycle + cycle[:1]) + " (each depends on the next)",
                              span, notes=notes)


def _domain_writers(kernel: Kernel, stmt: Statement) -> frozenset[str]:
    """Writers of the temporaries that bound `stmt`'s loops (data-dependent domains): their
    values must exist before the loops start."""
    params: set[str] = set()
    for d in kernel.domains:
        if set(inames_of(d)) & stmt.within_inames:
            params.update(params_of(d))
    return frozenset(w for name in sorted(params) if name in kernel.temporaries
                     for w in kernel.writers(name) if w != stmt.id)


def _find_cycle(pending: list[str], deps: dict[str, frozenset[str]], done: set[str]) -> list[str]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(s: str) -> list[str] | None:
        state[s] = 1
        stack.append(s)
        for d in sorted(deps[s]):
            if d in done:
                continue
            if state.get(d) == 1:
                return stack[stack.index(d):]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        stack.pop()
        state[s] = 2
        return None

    for s in pending:
        if s not in state:
            found = visit(s)
            if found:
                # start at the earliest-declared statement, for stable messages
                k = min(range(len(found)), key=lambda j: pending.index(found[j]))
                return found[k:] + found[:k]
    return pending


def _common_prefix(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


# ---------------------------------------------------------------------------------------------
# tree

def build_tree(order: list[str], nests: dict[str, tuple[str, ...]],
               unrolled: set[str]) -> tuple[ScheduleNode, ...]:
    """Nest the ordered statements: consecutive statements share their common loops."""
    root: list = []
    stack: list[tuple[str, list]] = []   # (iname, body) of the open loops

    def close_to(depth: int) -> None:
        while len(stack) > depth:
            iname, body = stack.pop()
            node = LoopNode(iname=iname, body=tuple(body), unrolled=iname in unrolled)
            (stack[-1][1] if stack else root).append(node)

    for sid in order:
        nest = nests[sid]
        shared = _common_prefix(nest, tuple(i for i, _ in stack))
        close_to(shared)
        for iname in nest[shared:]:
            stack.append((iname, []))
        target = stack[-1][1] if stack else root
        target.append(StatementNode(statement_id=sid))
    close_to(0)
    return tuple(root)


def loop_instances(order: list[str], nests: dict[str, tuple[str, ...]]
                   ) -> dict[str, dict[str, int]]:
    """For each statement, the loop (one number per loop `build_tree` opens) of each of its
    inames: two statements share one iteration of a loop only where the numbers agree."""
    out: dict[str, dict[str, int]] = {}
    stack: list[tuple[str, int]] = []
    opened = 0
    for sid in order:
        nest = nests[sid]
        shared = _common_prefix(nest, tuple(i for i, _ in stack))
        del stack[shared:]
        for iname in nest[shared:]:
            opened += 1
            stack.append((iname, opened))
        out[sid] = dict(stack)
    return out


def _check_values_stay_in_iteration(kernel: Kernel, order: list[str],
                                    nests: dict[str, tuple[str, ...]]) -> None:
    """Refuse a schedule that puts a statement and one it depends on for a temporary in two
    different loops over an iname they share, where the writer stores the same elements in
    every iteration of it (a prefetched tile, an accumulator): the reader would see the value
    of the writer's last iteration, not of its own (a tile fetched for each step of k_outer
    outside a sequential loop j that encloses the reader's k_outer loop)."""
    where = loop_instances(order, nests)
    stmts = kernel.id_to_statement
    # the temporaries each statement writes, once per statement: a region of hundreds of
    # statements on one argument has a dependence between every two of them
    written = {sid: frozenset(n for n in stmts[sid].assignee_names() if n in kernel.temporaries)
               for sid in order}
    for sid in order:
        reader = stmts[sid]
        deps = [dep for dep in sorted(reader.depends_on - {sid}) if written.get(dep)]
        reads = _names_read(reader) if deps else set()
        for dep in deps:
            writer = stmts[dep]
            names = sorted(written[dep] & reads)
            for iname in nests[sid]:
                if (iname in where[dep] and where[dep][iname] != where[sid][iname]
                        and any(not _stored_per(writer, n, iname) for n in names)):
                    raise _split_value_error(kernel, reader, writer, names, iname, nests)


def _names_read(stmt: Statement) -> set[str]:
    return set().union(*(dependencies(e) for e in stmt.read_expressions()))


def _stored_per(stmt: Statement, name: str, iname: str) -> bool:
    """Whether `stmt` stores `name` at elements that depend on `iname` (each iteration has
    its own: a privatised array indexed by the loop)."""
    targets = getattr(stmt, "assignees", None) or (getattr(stmt, "assignee", None),)
    return any(t is not None and _assignee_name(t) == name
               and any(iname in dependencies(i) for i in _subscript_indices(t))
               for t in targets)


def _split_value_error(kernel: Kernel, reader: Statement, writer: Statement,
                       names: list[str], iname: str,
                       nests: dict[str, tuple[str, ...]]) -> SchedulingError:
    outside = [i for i in nests[reader.id] if i not in nests[writer.id]
               and nests[reader.id].index(i) < nests[reader.id].index(iname)]
    why = (f"loop {outside[0]} encloses the reader's loop over {iname} but not the "
           f"writer's" if outside else f"the loop over {iname} is split between them")
    notes = (Note(f"statement {writer.id!r} writes {', '.join(names)} here", writer.span),) \
        if writer.span is not None else ()
    return SchedulingError(
        f"statement {reader.id!r} reads {', '.join(names)} written by {writer.id!r} in the "
        f"same iteration of loop {iname}, but they cannot share one loop over {iname}: {why} "
        f"(include {outside[0] if outside else iname} in the writer's loops, e.g. "
        f"add_prefetch(..., fetch_outer_inames=...), or move the loop)",
        reader.span, notes=notes)


def schedule_kernel(kernel: Kernel) -> Schedule:
    """Schedule `kernel` (reductions must already be lowered): the loop tree, without the
    automatic barriers (`translator.codegen.barriers` adds those)."""
    hardware = resolve_hardware_axes(kernel)
    loops = {s.id: loop_inames(kernel, s, hardware) for s in kernel.statements}
    rank = iname_order(kernel, sorted(set().union(*loops.values())) if loops else [])
    nests = {sid: tuple(sorted(ls, key=rank.__getitem__)) for sid, ls in loops.items()}
    order = _Orderer(kernel, nests).order()
    _check_values_stay_in_iteration(kernel, order, nests)
    unrolled = {i for i in rank if is_unrolled_iname(kernel, i)}
    body = build_tree(order, nests, unrolled)
    return Schedule(kernel=kernel, body=body, hardware=hardware)

