"""How many kernels a region's host program launches, and whether its host loops pay off.

A region cut by `translator.split` runs kernels inside host loops.  Each launch costs the
host and the device a fixed overhead (a few microseconds on a GPU), so host loops around
tiny kernels (an initialisation routine's ``do k; do j; ...`` with a 2 x 2 nest inside)
can launch millions of kernels that each do almost nothing: a *launch storm*.  The splitter
asks this module, for each host loop it could make, whether the loop's launches cost more
than running the whole nest as one kernel (one launch, on one work item when nothing in it
is parallel), and keeps the cheaper.

The estimate, in units of one loop iteration run by one work item, with every unknown size
(a parameter) at `NOMINAL_SIZE`:

- a launch costs `LAUNCH_COST` iterations;
- a parallel kernel runs `DEVICE_LANES` iterations at once; a sequential one runs one at a
  time;
- a host loop costs the sum of its body's launches, for each of its iterations.

Consecutive parallel nests that may share one kernel (each is proved on its own, so launching
them one after the other is always right) share it unless their mappings disagree: the fused
kernel runs every nest on one grid, the widest of theirs, and the automatic mapper fits the
nests' tiles into one work group (smaller tiles).  A nest run on a launch shape that is not its
own (`launch_shape`: work items per group, groups; with every parameter at `NOMINAL_SIZE`) is
estimated slower by the ratio of their work-group sizes (`shape_mismatch`), and the nests are
launched apart when that loss is more than the launches saved (`fusion_pays`): two large
matrix-vector nests with different tilings (PolyBench's bicg) run as two kernels, two tiny
nests as one.

A region that still launches more than `STORM_LAUNCHES` kernels per call, and whose launch
overhead is more than the estimated time of the work they do, gets ``-Wlaunch-storm``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from translator.codegen.cexpr import to_c
from translator.codegen.program import HostLoopCode
from translator.diagnostics import warn
from translator.ir.isl_glue import nominal_points, simplify_index
from translator.ir.mappers import reduction_inames
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.ir.tags import LocalTag
from translator.schedule import resolve_hardware_axes

#: The size assumed for every parameter (an unknown loop bound) in the estimates.
NOMINAL_SIZE = 1000
#: The overhead of one launch, in iterations of one work item (5 us at 100 ns each).
LAUNCH_COST = 50
#: How many iterations a parallel kernel runs at once.
DEVICE_LANES = 4096
#: Launches per call above which a region warns (``-Wlaunch-storm``).
STORM_LAUNCHES = 10_000


def iterations(kernel: Kernel, stmts: Sequence[Statement], host: Sequence[str]) -> int:
    """Loop iterations of `stmts` in one call, host loops `host` included (an estimate)."""
    names = set(host)
    for s in stmts:
        names |= set(s.within_inames) | reduction_inames(s)
    return max(nominal_points(kernel.domains, sorted(names), NOMINAL_SIZE), 1)


def host_iterations(kernel: Kernel, host: Sequence[str]) -> int:
    """How many times the body of host loops `host` runs in one call (an estimate)."""
    return nominal_points(kernel.domains, list(host), NOMINAL_SIZE)


def launch_cost(kernel: Kernel, stmts: Sequence[Statement], host: Sequence[str],
                parallel: bool) -> float:
    """The estimated cost of launching the kernel of `stmts` once per iteration of `host`."""
    work = iterations(kernel, stmts, host)
    return host_iterations(kernel, host) * LAUNCH_COST + (work / DEVICE_LANES if parallel
                                                          else work)


def parallel_speedup(work: int) -> float:
    """How much faster `work` iterations run as one parallel kernel than on one work item
    (both launched once), in this module's model."""
    return (LAUNCH_COST + work) / (LAUNCH_COST + work / DEVICE_LANES)


#: A launch's shape: work items per group and number of groups, per hardware axis.
Shape = tuple[tuple[int, ...], tuple[int, ...]]


def launch_shape(kernel: Kernel) -> Shape:
    """The launch shape of mapped `kernel` with every parameter at `NOMINAL_SIZE` (an
    estimate: each axis takes its widest hardware iname, as the grid does)."""
    hardware = resolve_hardware_axes(kernel)
    axes = 1 + max((tag.axis for tag in hardware.values()), default=0)
    local, groups = [1] * axes, [1] * axes
    for iname, tag in hardware.items():
        size = nominal_points(kernel.domains, [iname], NOMINAL_SIZE)
        sizes = local if isinstance(tag, LocalTag) else groups
        sizes[tag.axis] = max(sizes[tag.axis], size)
    return tuple(local), tuple(groups)


def shape_mismatch(own: Shape, other: Shape) -> float:
    """How much slower a nest whose own launch shape is `own` runs in a launch shaped
    `other`: the ratio of their work items per group (1 for equal groups: lanes left idle, or
    tiles shrunk to fit a group shaped for another nest).  Groups beyond the nest's own cost
    nothing here: they find no iteration of it and go on at once."""
    mine, theirs = max(math.prod(own[0]), 1), max(math.prod(other[0]), 1)
    return max(mine, theirs) / min(mine, theirs)


def fusion_pays(works: Sequence[int], shapes: Sequence[Shape], fused: Shape) -> bool:
    """Whether parallel nests of `works` iterations, whose own launch shapes are `shapes`,
    cost less as one launch shaped `fused` than launched one after the other: the work lost
    to shapes not their own is at most the launches saved."""
    lost = sum(w / DEVICE_LANES * (shape_mismatch(s, fused) - 1) for w, s in zip(works, shapes))
    return lost <= LAUNCH_COST * (len(works) - 1)


def storm_message(launches: int, work: float) -> str | None:
    """The ``-Wlaunch-storm`` text for a region estimated to launch `launches` kernels per
    call around `work` (cost units of its kernels' work), or None if that is no storm."""
    if launches <= STORM_LAUNCHES or launches * LAUNCH_COST <= work:
        return None
    return (f"about {launches} kernel launches per call (with every unknown size "
            f"{NOMINAL_SIZE}) from host loops around kernels that do little work each; the "
            "launches cost more than the work: map an outer loop, or make the loop nest "
            "parallel so that it runs as one kernel")


def warn_storm(kernel: Kernel, launches: int, work: float) -> None:
    """``-Wlaunch-storm`` at the region when `storm_message` finds a storm."""
    message = storm_message(launches, work)
    if message is not None:
        warn("launch-storm", f"region {kernel.name}: {message}", kernel.span)


def launches_text(body: Iterable) -> str:
    """``1`` or ``2*nx*ny (host loops k, j)``: the launches of one call of a host program
    whose parts are `body` (`HostLoopCode` and `KernelLaunch` of `translator.codegen.program`),
    with each host loop's trip count."""
    terms: dict[tuple[str, ...], int] = {}
    loops: list[str] = []
    _count(body, (), terms, loops)
    text = " + ".join(_term(count, trips) for trips, count in terms.items())
    return f"{text} (host loops {', '.join(loops)})" if loops else text


def _count(body: Iterable, trips: tuple[str, ...], terms: dict, loops: list[str]) -> None:
    for part in body:
        if isinstance(part, HostLoopCode):
            loops.append(part.iname)
            trip = to_c(simplify_index(part.upper - part.lower + 1))
            _count(part.body, trips + (trip,), terms, loops)
        else:
            terms[trips] = terms.get(trips, 0) + 1


def _term(count: int, trips: tuple[str, ...]) -> str:
    factors = [f"({t})" if any(c in t for c in "+-/ ") else t for t in trips]
    if count != 1 or not factors:
        factors.insert(0, str(count))
    return "*".join(factors)


__all__ = ["DEVICE_LANES", "LAUNCH_COST", "NOMINAL_SIZE", "STORM_LAUNCHES", "fusion_pays",
           "iterations", "launch_cost", "launch_shape", "launches_text", "shape_mismatch",
           "storm_message", "warn_storm"]
