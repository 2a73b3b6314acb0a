"""Regions as host programs: a region's kernel cut into host loops and device kernels.

A region that cannot run as one parallel launch is cut, in the IR, after the user's transforms
and privatisation and before automatic mapping:

- its statements are grouped into *nests*: consecutive statements that share their outermost
  loop (statements outside every loop form scalar groups);
- consecutive groups are merged back into one kernel as long as the merged kernel still runs
  in parallel (`leaf_ok` decides: the caller runs automatic mapping and legality on it), so a
  new kernel starts only where a dependence crosses work items, or where the nests' mappings
  disagree so much that two launches cost less (`translator.launch_cost.fusion_pays`);
- a nest that is not parallel on its own and whose outermost loop has bounds in parameters only
  becomes a *host loop* (the time loop): its body is cut again, and its iname becomes a value
  argument of the kernels inside it.  A host loop is kept only if some kernel inside it runs in
  parallel (an in-place Gauss-Seidel sweep stays one sequential kernel, and says why), and
  only if its launches cost less than running the whole nest as one kernel
  (`translator.launch_cost`: host loops around tiny kernels would launch millions of them);
- temporaries that several kernels use (a reduction result, ``nrm = sqrt(s)``) live in global
  memory: they become one-element (or array) device buffers, allocated by the host program and
  never copied to or from the host.

The parts keep the statements' original order, so every dependence between kernels is kept by
launch order on the runtime's in-order queue; legality is proved per kernel by the pipeline.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import field, replace

import pymbolic.primitives as p

from translator.analysis.access import statement_accesses
from translator.ir.data import AddressSpace, ArrayArg
from translator.ir.expr import Expression, dependencies, substitute
from translator.ir.isl_glue import (access_footprint, expr_from_pwaff, find_conflict, iname_bounds,
                                    inames_of)
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement, map_expressions
from translator.ir.mappers import reduction_inames
from translator.ir.slicing import loop_order, referenced_names, sub_kernel
from translator.ir.util import FrozenDict
from translator.launch_cost import (DEVICE_LANES, LAUNCH_COST, fusion_pays, host_iterations,
                                    iterations, launch_cost, launch_shape, warn_storm)
from translator.records import dataclass


@dataclass(frozen=True)
class Launch:
    """One device kernel of a region (its statements, domains and arguments only); `cost`
    and `launches` estimate one call's share (`translator.launch_cost`)."""

    kernel: Kernel
    cost: float = field(default=0.0, compare=False)
    launches: int = field(default=1, compare=False)


@dataclass(frozen=True)
class HostLoop:
    """A sequential loop run by the host: `iname` from `lower` to `upper` (inclusive); `cost`
    and `launches` estimate one call's share, all its iterations included."""

    iname: str
    lower: Expression
    upper: Expression
    body: tuple[Launch | HostLoop, ...]
    cost: float = field(default=0.0, compare=False)
    launches: int = field(default=0, compare=False)


Part = Launch | HostLoop


@dataclass(frozen=True)
class HostPlan:
    """A region cut into parts; `kernel` is the whole region (with device temporaries turned
    into array arguments), `device_buffers` names those arguments."""

    kernel: Kernel
    parts: tuple[Part, ...]
    device_buffers: tuple[str, ...] = ()

    def launches(self) -> list[Launch]:
        return list(walk_launches(self.parts))


def walk_launches(parts: Sequence[Part]):
    for part in parts:
        if isinstance(part, Launch):
            yield part
        else:
            yield from walk_launches(part.body)


LeafOk = Callable[[Kernel], bool]


def plan_region(kernel: Kernel, leaf_ok: LeafOk, parallel: bool = False) -> HostPlan | None:
    """The host program of `kernel`, or None when cutting does not help (one kernel it is).
    `parallel`: `kernel` runs in parallel as one kernel, and is cut only where its nests'
    mappings disagree (`_Cutter.conflicts` off: nests that touch one element on one work
    item stay together)."""
    ordered = in_dependence_order(kernel.statements)
    if any(a is not b for a, b in zip(ordered, kernel.statements)):
        kernel = kernel.copy(statements=tuple(ordered))
    shared = _shared_temporaries(kernel, kernel.statements, ())
    work = globalize(kernel, shared) if shared else kernel
    cutter = _Cutter(work, leaf_ok, conflicts=not parallel)
    parts, parallel = cutter.cut(work.statements, ())
    if not parallel or (len(parts) == 1 and isinstance(parts[0], Launch)):
        return None
    if _splits_local_memory(parts):
        return None
    launches = sum(q.launches for q in parts)
    warn_storm(kernel, launches, sum(q.cost for q in parts) - launches * LAUNCH_COST)
    work = cutter.kernel
    named = _name_parts(work, parts, cutter.sub)
    buffers = tuple(sorted(set(work.arg_names) - set(kernel.arg_names)))
    return HostPlan(kernel=work, parts=named, device_buffers=buffers)


def in_dependence_order(stmts: Sequence[Statement]) -> list[Statement]:
    """`stmts` in their order, except that each comes after the statements it depends on:
    the cutter launches groups in list order, and a transform may append a statement that
    others depend on (a prefetch's fill rule comes last; launched after its readers, they
    read a tile never filled: h76's fuzzer c:4029)."""
    ids = {s.id for s in stmts}
    done: set[str] = set()
    for s in stmts:   # most lists are in order already: one pass
        if not (s.depends_on & ids) <= done:
            break
        done.add(s.id)
    else:
        return list(stmts)
    done.clear()
    out: list[Statement] = []
    waiting = list(stmts)
    while waiting:
        ready = next((s for s in waiting if (s.depends_on & ids) <= done), waiting[0])
        waiting.remove(ready)
        out.append(ready)
        done.add(ready.id)
    return out


def _splits_local_memory(parts: Sequence[Part]) -> bool:
    """Whether some local temporary (a prefetch's tile) is used by more than one launch:
    local memory lives for one launch only, so its fill and its readers must stay in one
    kernel (a tile filled by one launch is uninitialised in the next)."""
    seen: set[str] = set()
    for launch in walk_launches(parts):
        temps = launch.kernel.temporaries
        local = {n for n in referenced_names(launch.kernel.statements)
                 if n in temps and temps[n].address_space == AddressSpace.LOCAL}
        if local & seen:
            return True
        seen |= local
    return False


# ---------------------------------------------------------------------------------------------
# grouping

def groups(kernel: Kernel, stmts: Sequence[Statement],
           host: Sequence[str]) -> list[tuple[str | None, list[Statement]]]:
    """Consecutive statements grouped by their outermost loop inside the host loops `host`
    (None: statements outside every loop)."""
    order = loop_order(kernel)
    out: list[tuple[str | None, list[Statement]]] = []
    for s in stmts:
        inner = [n for n in s.within_inames if n not in host]
        top = min(inner, key=order.__getitem__) if inner else None
        if out and out[-1][0] == top:
            out[-1][1].append(s)
        else:
            out.append((top, [s]))
    return out


def large_nests(kernel: Kernel) -> int:
    """How many of the region's outermost loop nests do more work than a launch costs
    many times over (`translator.launch_cost`): a region that runs as one parallel kernel is
    cut (`plan_region`) only where two such nests may do better launched apart."""
    return sum(1 for top, members in groups(kernel, kernel.statements, ())
               if top is not None
               and iterations(kernel, members, ()) > LAUNCH_COST * DEVICE_LANES)


class _Cutter:
    """Cuts statement lists into parts; `kernel` gains device buffers as it goes."""

    def __init__(self, kernel: Kernel, leaf_ok: LeafOk, conflicts: bool = True) -> None:
        self.kernel = kernel
        self.leaf_ok = leaf_ok
        self.conflicts = conflicts   # whether `loops_conflict` may keep groups apart
        self._known: tuple[Kernel, dict[str, list]] = (kernel, {})
        self._subs: tuple[Kernel, dict[tuple, Kernel]] = (kernel, {})

    def _accesses(self, stmt: Statement) -> list:
        """`memory_accesses` of `stmt` in the current kernel (each group is compared with the
        one before and the one after it: asked twice)."""
        if self._known[0] is not self.kernel:
            self._known = (self.kernel, {})
        found = self._known[1]
        if stmt.id not in found:
            found[stmt.id] = memory_accesses(self.kernel, stmt)
        return found[stmt.id]

    def cut(self, stmts: Sequence[Statement], host: tuple[str, ...]) -> tuple[list[Part], bool]:
        """Parts for `stmts` inside host loops `host`; and whether some kernel is parallel."""
        leaves = self._merged(groups(self.kernel, stmts, host), host)
        parts: list[Part] = []
        parallel = False
        for top, members, ok in leaves:
            loop = None if ok or top is None else self._host_loop(top, members, host)
            if loop is not None:
                parts.append(loop)
                parallel = True
                continue
            parts.append(self._launch(members, host, ok))
            parallel = parallel or (ok and any(s.within_inames - set(host) for s in members))
        return parts, parallel

    def _merged(self, grouped, host) -> list[tuple[str | None, list[Statement], bool]]:
        """Consecutive groups merged while the merged kernel stays parallel.  Two loop groups
        that provably touch one element of global memory that one of them writes are not
        merged (`loops_conflict`, a footprint test: the merged kernel would race, so the full
        mapping and legality run on it is skipped); every other candidate is checked in full."""
        out: list[tuple[str | None, list[Statement], bool]] = []
        loose: list[bool] = []   # per entry of `out`: whether it holds a statement in no loop
        for top, members in grouped:
            ok = self.leaf_ok(self._sub(members, host))
            if out and out[-1][2] and ok and not (
                    self.conflicts and top is not None and not loose[-1]
                    and loops_conflict(self.kernel, out[-1][1], members, host,
                                       self._accesses)):
                merged = out[-1][1] + members
                if self.leaf_ok(self._sub(merged, host)) and self._fusion_pays(
                        out[-1][1], members, host):
                    out[-1] = ("", merged, True)
                    loose[-1] = loose[-1] or top is None
                    continue
            out.append((top, list(members), ok))
            loose.append(top is None)
        return out

    def _fusion_pays(self, first: list[Statement], second: list[Statement],
                     host: tuple[str, ...]) -> bool:
        """Whether parallel kernels `first` and `second` are better merged than launched one
        after the other, by their mapped launch shapes (`translator.launch_cost.fusion_pays`);
        merged where the mapped kernels are not known (`leaf_ok.reuse`, where the checker
        has it)."""
        reuse = getattr(self.leaf_ok, "reuse", None)
        found = [reuse(self._sub(m, host)) for m in (first, second, first + second)] \
            if reuse is not None else [None]
        if any(f is None for f in found):
            return True
        shapes = [launch_shape(final) for final, _ in found]
        works = [iterations(self.kernel, m, host) for m in (first, second)]
        return fusion_pays(works, shapes[:2], shapes[2])

    def _host_loop(self, iname: str, members: list[Statement],
                   host: tuple[str, ...]) -> HostLoop | None:
        bounds = host_loop_bounds(self.kernel, iname, members, host)
        if bounds is None:
            return None
        shared = _shared_temporaries(self.kernel, members, host + (iname,))
        if shared:
            self.kernel = globalize(self.kernel, shared)
        ids = {s.id for s in members}
        members = [s for s in self.kernel.statements if s.id in ids]
        body, parallel = self.cut(members, host + (iname,))
        if not parallel:
            return None
        loop = HostLoop(iname, bounds[0], bounds[1], tuple(body),
                        cost=sum(q.cost for q in body), launches=sum(q.launches for q in body))
        return loop if self._pays_off(loop, members, host) else None

    def _launch(self, members: list[Statement], host: tuple[str, ...], ok: bool) -> Launch:
        return Launch(self._sub(members, host), cost=launch_cost(self.kernel, members, host, ok),
                      launches=host_iterations(self.kernel, host))

    def _pays_off(self, loop: HostLoop, members: list[Statement], host: tuple[str, ...]) -> bool:
        """Whether host loop `loop` over `members` costs less than one launch of them all on
        one work item (launch storms: `translator.launch_cost`); or that launch would not
        pass the kernel stages (`leaf_ok.runs`, where the checker has it)."""
        if loop.cost <= launch_cost(self.kernel, members, host, False):
            return True
        runs = getattr(self.leaf_ok, "runs", None)
        return runs is not None and not runs(self._sub(members, host))

    def _sub(self, members: Sequence[Statement], host: Sequence[str]) -> Kernel:
        return self.sub([s.id for s in members], host)

    def sub(self, ids: Sequence[str], host: Sequence[str]) -> Kernel:
        """`sub_kernel` of the current kernel, remembered while the kernel stays the same (a
        group is cut once to be checked, once for its launch, once to be named)."""
        if self._subs[0] is not self.kernel:
            self._subs = (self.kernel, {})
        key = (tuple(ids), tuple(host))
        found = self._subs[1].get(key)
        if found is None:
            found = sub_kernel(self.kernel, ids, host, self.kernel.name)
            self._subs[1][key] = found
        return found


def loops_conflict(kernel: Kernel, first: Sequence[Statement], second: Sequence[Statement],
                   host: Sequence[str], accesses: Callable | None = None) -> bool:
    """Whether some element of global memory (an array argument or a global temporary) that
    one of the statement lists writes is, provably, touched by the other in the same iteration
    of the host loops `host`.  Two loop nests related so cannot share a kernel: the mapping of
    each nest puts its iterations on different work items while the other nest's iterations
    run in every one (the kernel races; the host program launches them one after the other).
    False where it is not proved (a subscript that is not affine, a flat and a shaped access of
    one array): the caller then checks the merged kernel in full.  `accesses` gives a
    statement's `memory_accesses` (the caller may remember them)."""
    accesses = accesses or (lambda s: memory_accesses(kernel, s))
    one = [a for s in first for a in accesses(s)]
    two = [a for s in second for a in accesses(s)]
    return any(_overlap(kernel, a, b, host) for a in one for b in two
               if a.variable == b.variable and (a.is_write or b.is_write))


def memory_accesses(kernel: Kernel, stmt: Statement) -> list:
    """The accesses of `stmt` to global memory: array arguments and global temporaries."""
    return list(statement_accesses(kernel, stmt, _global_memory(kernel)))


_MEMORY: list = [None, frozenset()]


def _global_memory(kernel: Kernel) -> frozenset[str]:
    """Names of `kernel`'s array arguments and global temporaries (the last kernel's held)."""
    if _MEMORY[0] is not kernel:
        names = {a.name for a in kernel.array_args}
        names |= {n for n, t in kernel.temporaries.items()
                  if t.address_space == AddressSpace.GLOBAL}
        _MEMORY[:] = [kernel, frozenset(names)]
    return _MEMORY[1]


def _overlap(kernel: Kernel, a, b, host: Sequence[str]) -> bool:
    """Whether accesses `a` and `b` provably touch one element in one host iteration."""
    if a.index is None or b.index is None or a.layout != b.layout \
            or len(a.index) != len(b.index):
        return False
    try:
        sets = [access_footprint(kernel.domains, x.inames, x.conditions, x.index, host,
                                 kernel.assumptions) for x in (a, b)]
        return find_conflict(sets[0], sets[1], (), ()) is not None
    except Exception:   # a condition or bound isl cannot take: not proved
        return False


def host_loop_bounds(kernel: Kernel, iname: str, members: Sequence[Statement],
                     host: Sequence[str]) -> tuple[Expression, Expression] | None:
    """(lower, upper) of `iname` as a host loop, or None if it cannot be one: its domain holds
    other inames, it is mapped or a reduction iname, or its bounds use more than parameters."""
    dom = kernel.domains[kernel.domain_index_of(iname)]
    if inames_of(dom) != (iname,):
        return None
    if any(str(t) not in ("ord", "unr") for t in kernel.tags_of(iname)):
        return None
    if any(iname in names for names in kernel.loop_priority):
        return None   # the user ordered this loop (prioritize_loops): it stays in the kernel
    if any(iname in reduction_inames(s) for s in kernel.statements):
        return None
    if any(iname not in s.within_inames for s in members):
        return None
    try:
        lo, hi = iname_bounds(dom, iname)
        lower = expr_from_pwaff(lo, combine="exact")
        upper = expr_from_pwaff(hi, combine="exact")
    except Exception:
        return None
    allowed = {a.name for a in kernel.value_args} | set(host)
    if (dependencies(lower) | dependencies(upper)) - allowed:
        return None
    return lower, upper


# ---------------------------------------------------------------------------------------------
# sub-kernels

def _shared_temporaries(kernel: Kernel, stmts: Sequence[Statement],
                        host: Sequence[str]) -> list[str]:
    """Private temporaries whose value must outlive a launch: some group of `stmts` reads one
    before writing it (a reduction result, ``nrm = sqrt(s)``) while another group uses it, or
    inside a host loop (the value comes from the previous iteration).  A temporary that every
    group writes before reading (a per-nest accumulator) stays private."""
    used: dict[str, set[int]] = {}
    exposed: set[str] = set()
    for k, (_, members) in enumerate(groups(kernel, stmts, host)):
        reads_first = _read_first(members)
        for name in referenced_names(members):
            temp = kernel.temporaries.get(name)
            if temp is None or temp.address_space not in (None, AddressSpace.PRIVATE):
                continue
            if temp.initializer is not None or temp.read_only:
                continue
            used.setdefault(name, set()).add(k)
            if name in reads_first:
                exposed.add(name)
    return sorted(n for n in exposed if len(used[n]) > 1 or host)


def _read_first(stmts: Sequence[Statement]) -> set[str]:
    """Names that `stmts`, in order, read before they write them (their value comes in)."""
    first: dict[str, bool] = {}
    for s in stmts:
        reads = set().union(*(dependencies(e) for e in s.read_expressions()))
        for name in reads | set(s.assignee_names()):
            first.setdefault(name, name in reads)
    return {n for n, read in first.items() if read}


def values_leaving_loops(kernel: Kernel) -> list[str]:
    """Private temporaries written inside a loop that another group of statements reads
    before writing: in one kernel each work item would see only its own iterations' value,
    so such a region needs several kernels (the value then lives in global memory)."""
    out: set[str] = set()
    grouped = groups(kernel, kernel.statements, ())
    reads_first = [_read_first(others) for _, others in grouped]
    for k, (top, members) in enumerate(grouped):
        if top is None:
            continue
        written = {n for s in members for n in s.assignee_names()
                   if n in kernel.temporaries and kernel.temporaries[n].address_space
                   in (None, AddressSpace.PRIVATE)}
        if not written:
            continue
        for j, first in enumerate(reads_first):
            if j != k:
                out |= written & first
    return sorted(out)


def globalize(kernel: Kernel, names: Sequence[str]) -> Kernel:
    """Temporaries `names` become global array arguments (scalars: one element, ``s`` ->
    ``s[0]``), so that their values live across launches."""
    scalars = {n: p.Subscript(p.Variable(n), (0,)) for n in names
               if not kernel.temporaries[n].shape}
    stmts = tuple(map_expressions(s, lambda e: substitute(e, scalars)) for s in kernel.statements)
    new_args = []
    for n in names:
        t = kernel.temporaries[n]
        shape = t.shape or (1,)
        new_args.append(ArrayArg(name=n, dtype=t.dtype, shape=shape,
                                 dim_tags=t.dim_tags if t.shape else None, span=t.span))
    temps = FrozenDict({n: t for n, t in kernel.temporaries.items() if n not in names})
    return kernel.copy(statements=stmts, args=kernel.args + tuple(new_args), temporaries=temps)


def _name_parts(kernel: Kernel, parts: Sequence[Part],
                cut: Callable[[Sequence[str], Sequence[str]], Kernel]) -> tuple[Part, ...]:
    """Final sub-kernels (from the final `kernel`, cut by `cut`) named ``<region>_k0``,
    ``_k1``, ..."""
    counter = iter(range(1 << 30))

    def rename(part: Part, host: tuple[str, ...]) -> Part:
        if isinstance(part, HostLoop):
            inner = host + (part.iname,)
            return replace(part, body=tuple(rename(q, inner) for q in part.body))
        ids = [s.id for s in part.kernel.statements]
        return Launch(cut(ids, host).copy(name=f"{kernel.name}_k{next(counter)}"))

    return tuple(rename(q, ()) for q in parts)


__all__ = ["HostLoop", "HostPlan", "Launch", "globalize", "groups", "plan_region",
           "sub_kernel", "values_leaving_loops", "walk_launches"]
