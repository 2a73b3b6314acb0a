"""Automatic mapping for regions without mapping pragmas.

The outermost band of provably parallel loops goes onto the hardware: the loop over the
contiguous (stride-1) axis of most accesses on local axis 0 (coalescing), split by 256 in 1-D;
in 2-D 32 x 8.  Every chosen loop is proved parallel by `translator.analysis.legality` before it
is mapped, and the pipeline checks the final kernel again.  A region with no parallel loop runs
as one work item, with a warning naming the dependence that prevented parallelism.

This module applies transforms, so it belongs to the driver layer (with `translator.pipeline`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pymbolic.primitives as p

from translator.analysis.access import kernel_accesses
from translator.analysis.legality import check_kernel
from translator.diagnostics import LegalityError, warn
from translator.ir.data import ArrayArg, NestingTag
from translator.ir.expr import dependencies
from translator.ir.isl_glue import inames_of
from translator.ir.kernel import Kernel
from translator.ir.statements import Statement
from translator.ir.tags import GroupTag
from translator.ir.util import FrozenDict

#: Work-group shape by number of mapped loops (local axis 0 first).
GROUP_SHAPES = {1: (256,), 2: (32, 8)}


@dataclass(frozen=True)
class AutoMapping:
    """What the automatic mapper chose: pragma lines a user can paste and edit."""

    pragmas: tuple[str, ...]
    reason: str = ""


def has_mapping(kernel: Kernel) -> bool:
    """Whether the user already mapped something (any tag other than sequential ones)."""
    return any(str(t) not in ("ord", "unr") for tags in kernel.iname_tags.values() for t in tags)


def auto_map(kernel: Kernel) -> tuple[Kernel, AutoMapping]:
    """Map `kernel` if it has no mapping; returns the kernel and what was chosen."""
    if has_mapping(kernel) or not kernel.all_inames:
        return kernel, AutoMapping(())
    bands, blocker = nest_bands(kernel)
    if bands:
        mapped, mapping = _apply(kernel, [coalescing_order(kernel, b) for b in bands])
        try:
            return check_kernel(mapped), mapping
        except LegalityError as err:  # the nests depend on each other
            blocker = err.message
    reason = blocker or "it has no loop"
    warn("sequential-region", f"region {kernel.name} runs as a single work item: {reason}",
         kernel.span)
    return kernel, AutoMapping((), reason)


def loop_order(kernel: Kernel) -> list[str]:
    """Inames from outermost to innermost (domain order, which is source nesting order)."""
    return [n for d in kernel.domains for n in inames_of(d)]


def loop_nests(kernel: Kernel) -> list[list[Statement]]:
    """Statements grouped by their outermost loop, in source order (statements outside every
    loop belong to none: the generated code runs them on one work item)."""
    order = {n: k for k, n in enumerate(loop_order(kernel))}
    nests: dict[str, list[Statement]] = {}
    for s in kernel.statements:
        if s.within_inames:
            nests.setdefault(min(s.within_inames, key=order.__getitem__), []).append(s)
    return [nests[n] for n in sorted(nests, key=order.__getitem__)]


def nest_bands(kernel: Kernel) -> tuple[list[list[str]], str]:
    """For every loop nest, its outermost consecutive parallel loops shared by all of its
    statements (at most 2); or ([], why) if some nest has none."""
    bands = []
    for nest in loop_nests(kernel):
        band, blocker = parallel_band(kernel, nest)
        if not band:
            return [], blocker
        bands.append(band)
    return bands, "" if bands else "it has no loop"


def parallel_band(kernel: Kernel, nest: list[Statement]) -> tuple[list[str], str]:
    """The outermost consecutive parallel loops of `nest` (at most 2), and why the band stops
    (the legality error of the first loop that is not parallel)."""
    common = set.intersection(*(set(s.within_inames) for s in nest))
    band: list[str] = []
    for iname in loop_order(kernel):
        if iname not in common:
            continue
        try:
            check_kernel(_tagged(kernel, iname))
        except LegalityError as err:
            return band, "" if band else err.message
        band.append(iname)
        if len(band) == max(GROUP_SHAPES):
            break
    return band, "" if band else "no loop encloses every statement of a nest"


def _tagged(kernel: Kernel, iname: str) -> Kernel:
    return kernel.copy(iname_tags=FrozenDict({iname: frozenset([GroupTag(0)])}))


def coalescing_order(kernel: Kernel, band: list[str]) -> list[str]:
    """`band` reordered so that the loop indexing the stride-1 axis most often comes first."""
    votes: Counter[str] = Counter()
    arrays = {a.name: a for a in kernel.args if isinstance(a, ArrayArg)}
    for acc in kernel_accesses(kernel):
        arg = arrays.get(acc.variable)
        if arg is None or acc.index is None or not arg.dim_tags or acc.layout:
            continue
        for axis, tag in enumerate(arg.dim_tags):
            if isinstance(tag, NestingTag) and tag.level == 0 and axis < len(acc.index):
                for iname in dependencies(acc.index[axis]) & set(band):
                    if _is_unit_stride(acc.index[axis], iname):
                        votes[iname] += 1
    return sorted(band, key=lambda n: (-votes[n], band.index(n)))


def _is_unit_stride(index, iname: str) -> bool:
    if isinstance(index, p.Variable):
        return index.name == iname
    if isinstance(index, p.Sum):
        return any(isinstance(c, p.Variable) and c.name == iname for c in index.children)
    return False


def _apply(kernel: Kernel, bands: list[list[str]]) -> tuple[Kernel, AutoMapping]:
    """Split every band's loops onto the hardware with one work-group shape for the kernel."""
    import transforms
    shape = GROUP_SHAPES[max(len(b) for b in bands)]
    pragmas = []
    for band in bands:
        for axis, iname in enumerate(band):
            size = shape[axis]
            kernel = transforms.split_iname(kernel, iname, size, outer_tag=f"g.{axis}",
                                            inner_tag=f"l.{axis}")
            pragmas.append(f'split_iname("{iname}", {size}, outer_tag="g.{axis}", '
                           f'inner_tag="l.{axis}")')
    return kernel, AutoMapping(tuple(pragmas))
