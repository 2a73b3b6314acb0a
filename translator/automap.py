"""Automatic mapping for regions without mapping pragmas.

The outermost band of provably parallel loops goes onto the hardware: the loop over the
contiguous (stride-1) axis of most accesses on local axis 0 (coalescing), split by 256 in 1-D;
in 2-D 32 x 8.  A band of three or more loops (a 3-D stencil) puts the stride-1 loop on l.0
(32), the loop with the next smallest stride on l.1 (8) and the next whole on group axis 2
(one plane per group); further loops of the band stay sequential in each work item.  When
another nest of the same kernel has a shorter band, the 3-D band uses the two local axes only
(group axis 2 would repeat the other nests' work), and its remaining loops run sequentially
in each work item.  Every chosen loop is proved parallel by `translator.analysis.legality` before it
is mapped, and the pipeline checks the final kernel again.  A region with no parallel loop runs
as one work item, with a warning naming the dependence that prevented parallelism.

A loop that is not parallel only because it accumulates reductions (`translator.analysis.
reductions`) is mapped as a reduction over local axis 0: split by 256 with the outer loop on
the groups when every accumulation can be atomic, sequential otherwise.  In a kernel of one nest
whose reductions all run over two of its loops, both go onto the hardware (`GridReductionBand`):
the stride-one loop split by 256 onto l.0 and g.0, the other onto g.1; each group reduces
its values in one tree and the last group combines the groups' values.  Only reductions whose
result does not depend on the order of the terms are mapped automatically (integer sums and
products, maxima and minima): a floating-point sum in a new order differs in the last bits, so
it stays sequential (bit-identical) unless the user maps it, or allows reassociation
(``set_options(reassociate=True)`` in the region, or ``translate --reassociate``).

This module applies transforms, so it belongs to the driver layer (with `translator.pipeline`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from translator.analysis.arg_reductions import is_arg_reduction
from translator.analysis.coalescing import coalescing_key, coalescing_scores
from translator.analysis.legality import (check_mappings, check_split_band, prove_alone,
                                          proved_lately, remember_proved)
from translator.analysis.reductions import recognize_parallel_reductions, unordered_selection
from translator.dense_map import REASON as DENSE_REASON
from translator.dense_map import dense_mapping
from translator.diagnostics import DomainError, LegalityError, warn
from translator.ir.isl_glue import (hardware_range, inames_of, statement_domain, static_length,
                                    static_lower_bound)
from translator.ir.kernel import Kernel
from translator.ir.mappers import reductions_in
from translator.ir.shape_memo import KernelMemo, respan, span_slots, spans_within
from translator.ir.statements import Assignment, Statement
from translator.ir.tags import (GroupTag, IlpSeqTag, IlpUnrollTag, LocalTag, UnrollTag,
                                VectorizeTag)
from translator.ir.util import FrozenDict
from translator.records import dataclass

#: Work-group shape by number of mapped loops (local axis 0 first); a size of 1 maps the
#: whole loop onto the group axis (no local loop).
GROUP_SHAPES = {1: (256,), 2: (32, 8), 3: (32, 8, 1)}


@dataclass(frozen=True)
class Variant:
    """Knobs of the automatic mapper that tuning varies (`translator.tuning`): the work-group
    shapes of the simple mapping (by number of mapped loops) and whether dense tiling may be
    used.  The default is the mapper's own choice."""

    shapes: tuple[tuple[int, tuple[int, ...]], ...] = tuple(GROUP_SHAPES.items())
    dense: bool = True

    def shape(self, depth: int) -> tuple[int, ...]:
        return dict(self.shapes)[depth]


_VARIANT: ContextVar[Variant] = ContextVar("automap_variant", default=Variant())


@contextmanager
def using_variant(variant: Variant) -> Iterator[None]:
    """Map with `variant`'s knobs inside the block (the tuner's candidates)."""
    token = _VARIANT.set(variant)
    try:
        yield
    finally:
        _VARIANT.reset(token)


@dataclass(frozen=True)
class AutoMapping:
    """What the automatic mapper chose: pragma lines a user can paste and edit."""

    pragmas: tuple[str, ...]
    reason: str = ""
    #: What chose the pragmas when it was not the simple mapping (`translator.dense_map`).
    kind: str = ""


def has_mapping(kernel: Kernel) -> bool:
    """Whether the user already mapped something (any tag other than sequential ones)."""
    return any(str(t) not in ("ord", "unr") for tags in kernel.iname_tags.values() for t in tags)


def auto_map(kernel: Kernel, label: str = "") -> tuple[Kernel, AutoMapping]:
    """Map `kernel` if it has no mapping; returns the kernel and what was chosen.  `label`
    names the region when `kernel` is one of its several kernels (for the warning)."""
    if has_mapping(kernel):
        warn_uncoalesced(kernel)
        return kernel, AutoMapping(())
    if not kernel.all_inames:
        return kernel, AutoMapping(())
    variant, slots = _VARIANT.get(), span_slots(kernel)
    held = _SHAPES.find(kernel, variant)
    if held is not None:
        return _relocated(held, slots, kernel.name)
    mapped, mapping = _map_unmapped(kernel, label)
    if not mapping.reason and spans_within(mapped, slots):
        _SHAPES.keep(kernel, (mapped, mapping, slots, proved_lately(mapped)), variant)
    return mapped, mapping


#: Mappings by kernel shape, up to the kernel's name and spans (`translator.ir.shape_memo`):
#: (mapped kernel, `AutoMapping`, the spans of the kernel it was mapped for, whether legality
#: proved the mapped kernel).  Only parallel mappings, which warn of nothing: the mapper reads
#: the kernel's name for the warning of a sequential region only, and no span at all (those
#: of the mapped kernel are the input's, put back by `respan`).
_SHAPES = KernelMemo()


def _relocated(held: tuple, slots: list, name: str) -> tuple[Kernel, AutoMapping]:
    """A remembered mapping (`_SHAPES`) for a kernel of the same shape with spans `slots`
    and name `name`; proved again by legality where the remembered one was (the proof reads
    neither names nor spans)."""
    mapped, mapping, source, proved = held
    mapped = respan(mapped, source, slots, name)
    if proved:
        remember_proved(mapped)
    return mapped, mapping


def _map_unmapped(kernel: Kernel, label: str) -> tuple[Kernel, AutoMapping]:
    """`auto_map` of a kernel with loops and no mapping."""
    if not loop_nests(kernel):
        return _map_loose_reductions(kernel, label)
    bands, blocker = nest_bands(kernel)
    if bands:
        dense = dense_mapping(kernel, hardware_axes(kernel, bands), loop_nests(kernel)) \
            if _VARIANT.get().dense else None
        if dense is not None:
            return dense[0], AutoMapping(dense[1], kind=DENSE_REASON)
        axes = hardware_axes(kernel, bands)
        mapped, mapping = _apply(kernel, axes)
        try:
            check_split_band(kernel, recognize_parallel_reductions(mapped),
                             [n for band in axes if type(band) is list for n in band])
            return mapped, mapping
        except LegalityError as err:  # the nests depend on each other
            blocker = err.message
    return _sequential(kernel, blocker or "it has no loop", label)


def _sequential(kernel: Kernel, reason: str, label: str = "") -> tuple[Kernel, AutoMapping]:
    what = f"kernel {kernel.name} of region {label}" if label else f"region {kernel.name}"
    warn("sequential-region", f"{what} runs as a single work item: {reason}", kernel.span)
    return kernel, AutoMapping((), reason)


def _map_loose_reductions(kernel: Kernel, label: str = "") -> tuple[Kernel, AutoMapping]:
    """A region without loops: the reductions of its statements (Fortran's array intrinsics)
    onto local axis 0 of one work group, those that give the same bits in any order."""
    import transforms
    size = GROUP_SHAPES[1][0]
    mapped, pragmas, skipped = kernel, [], ""
    for iname, verdict in _loose_reduction_inames(kernel):
        pragma = f'split_iname("{iname}", {size}, inner_tag="l.0")'
        if verdict != "exact" and not kernel.options.reassociate:
            skipped = skipped or (
                f"mapping {iname} to l.0 would reorder a floating-point reduction (its result "
                f"would be rounded differently): map it explicitly, e.g. {pragma}, or allow "
                "reassociation (--reassociate, or set_options(reassociate=True)) to run it "
                "in parallel")
            continue
        mapped = transforms.split_iname(mapped, iname, size, inner_tag="l.0")
        pragmas.append(pragma)
    if not pragmas:
        return _sequential(kernel, skipped or "it has no loop", label)
    try:
        check_mappings(recognize_parallel_reductions(mapped))
    except LegalityError as err:
        return _sequential(kernel, err.message, label)
    return mapped, AutoMapping(tuple(pragmas))


def _loose_reduction_inames(kernel: Kernel) -> list[tuple[str, str]]:
    """For each outermost reduction of the statements: the iname to put on the local axis (the
    stride-1 one) and whether the reduction is "exact" in any order."""
    from translator.ir.expr import IRCombineMapper, Reduction
    from translator.ir.types import TypeOracle, infer_unknown_types
    oracle = TypeOracle(infer_unknown_types(kernel))

    class _Outermost(IRCombineMapper):
        def combine(self, values):
            return [r for v in values for r in v]

        def map_reduction(self, expr, *args, **kwargs):
            return [expr]

        def map_constant(self, expr, *args, **kwargs):
            return []

        map_variable = map_tagged_variable = map_numpy_scalar = map_constant

        def map_foreign(self, expr, *args, **kwargs):
            return []

    verdicts: dict[str, str] = {}
    inexact: set[str] = set()
    for stmt in kernel.statements:
        for expr in stmt.read_expressions():
            for red in _Outermost()(expr):
                dtype = oracle.dtype(red.expr)
                exact = dtype is not None and (red.operation in ("max", "min")
                                               or dtype.kind in "iu")
                verdicts.setdefault(coalescing_order(kernel, list(red.inames))[0], "exact")
                if not exact:
                    inexact |= set(red.inames)
    # an iname that several reductions share is split once, for all of them
    return [(n, "inexact" if n in inexact else v) for n, v in verdicts.items()]


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
    statements; or ([], why) if some nest has none."""
    bands = []
    for nest in loop_nests(kernel):
        band, blocker = parallel_band(kernel, nest)
        if not band:
            return [], blocker
        bands.append(band)
    return bands, "" if bands else "it has no loop"


def parallel_band(kernel: Kernel, nest: list[Statement]) -> tuple[list[str], str]:
    """The outermost consecutive parallel loops of `nest` (loops outside them that carry
    dependences stay sequential in each work item), or [] and why (the legality error of the
    outermost loop)."""
    common = set.intersection(*(set(s.within_inames) for s in nest))
    band: list[str] = []
    blocker = ""
    fixed = user_sequential(kernel)
    for iname in loop_order(kernel):
        if iname not in common:
            continue
        if iname in fixed:
            blocker = blocker or fixed_note(kernel, iname)
            continue
        try:
            prove_alone(kernel, iname)
        except LegalityError as err:
            if band:
                return band, ""
            reduction, note = _coalesced_reduction_band(kernel, iname, common - fixed)
            if reduction:
                return reduction, ""
            # an outer loop that carries a dependence stays sequential inside each work item;
            # the band may still start further in
            blocker = blocker or err.message + note
            continue
        band.append(iname)
    return band, "" if band else blocker or "no loop encloses every statement of a nest"


def _coalesced_reduction_band(kernel: Kernel, iname: str, common: set[str]
                              ) -> tuple[ReductionBand | GridReductionBand | None, str]:
    """The two loops of a one-nest kernel that reduce together, both on the hardware
    (`grid_reduction_band`: the stride-one loop on local axis 0, the next on group axis 1);
    else `reduction_band` of the first loop of a reduction nest that maps as one, trying the
    nest's loops in coalescing order (the loop whose accesses have stride one first): a sum
    over a 2-D nest of a column-major array is then spread over the fast axis and each work item
    runs the other loop, all of them reading neighbouring elements.  The note is `iname`'s."""
    inner = [n for n in loop_order(kernel) if n in common]
    candidates = coalescing_order(kernel, inner[inner.index(iname):])
    if len(candidates) >= 2 and len(loop_nests(kernel)) == 1:
        grid = grid_reduction_band(kernel, candidates[0], _long_loop(kernel, candidates[1:]))
        if grid is not None:
            return grid, ""
    first, note = None, ""
    for candidate in candidates:
        band, why = reduction_band(kernel, candidate)
        if candidate == iname:
            note = why
        if band:
            first = band
            break
    return first, note


#: Loops with a constant trip count below this are a poor group axis for a 2-D reduction.
MIN_GROUP_AXIS_LENGTH = 32


def _long_loop(kernel: Kernel, loops: list[str]) -> str:
    """The first of `loops` (in coalescing order) whose trip count is not a small constant
    (a loop over 3 corners would leave the group axis nearly empty), else the first."""
    fits = [n for n in loops
            if (length := constant_length(kernel, n)) is None or length >= MIN_GROUP_AXIS_LENGTH]
    return (fits or loops)[0]


class GridReductionBand(list):
    """A band of two loops of one nest that reduce together: the first (stride one) split
    onto local axis 0 and group axis 0, the second onto group axis 1; each work group
    reduces its values in one tree and the last group combines all groups' values
    (`translator.codegen.parallel_reductions`).  `values` counts the reductions."""

    values = 0

    def describe(self) -> str:
        """What ``--report`` says chose the mapping."""
        plural = "s" if self.values != 1 else ""
        return f"2-D group reduction ({self.values} value{plural}, one pass)"

    def pragmas(self) -> tuple[str, ...]:
        fast, slow = self
        size = GROUP_SHAPES[1][0]
        return (f'split_iname("{fast}", {size}, outer_tag="g.0", inner_tag="l.0")',
                f'tag_inames("{slow}:g.1")')

    def apply(self, kernel: Kernel) -> Kernel:
        import transforms
        fast, slow = self
        kernel = transforms.split_iname(kernel, fast, GROUP_SHAPES[1][0], outer_tag="g.0",
                                        inner_tag="l.0")
        return transforms.tag_inames(kernel, {slow: "g.1"})


def grid_reduction_band(kernel: Kernel, fast: str, slow: str) -> GridReductionBand | None:
    """Both loops of a 2-D reduction nest on the hardware (`GridReductionBand`), where every
    reduction the mapping makes runs over both and may run in any order: minima, maxima and
    integer sums always, floating-point sums with consent (``reassociate``); None otherwise,
    or where the mapped kernel is not proved legal."""
    band = GridReductionBand([fast, slow])
    probe = band.apply(kernel)
    rewritten = _proved_reductions(probe)
    if rewritten is None:
        return None
    before = probe.id_to_statement
    changed = [s for s in rewritten.statements if s is not before.get(s.id)]
    if not changed or not all(_reduces_over(s, probe.all_inames - kernel.all_inames | {slow})
                              for s in changed):
        return None
    verdicts = _verdicts(probe, rewritten, changed, atomic=True)
    if "no" in verdicts or ("inexact" in verdicts and not kernel.options.reassociate):
        return None
    band.values = sum(_reduction_count(s) for s in changed)
    return band


def _reduction_count(stmt: Statement) -> int:
    return len(_reductions(stmt))


def _reduces_over(stmt: Statement, inames: set[str]) -> bool:
    """Whether `stmt` has reductions and every one of them runs over all of `inames`."""
    found = _reductions(stmt)
    return bool(found) and all(inames <= red for red in found)


def _reductions(stmt: Statement) -> list[set[str]]:
    """The inames of every reduction in `stmt`'s expressions."""
    from translator.ir.expr import IRWalkMapper, Reduction
    found: list[set[str]] = []

    class _Walk(IRWalkMapper):
        def visit(self, expr, *args, **kwargs) -> bool:
            if isinstance(expr, Reduction):
                found.append(set(expr.inames))
            return True

    for e in stmt.read_expressions():
        _Walk()(e)
    return found


def user_sequential(kernel: Kernel) -> frozenset[str]:
    """Inames the user tagged sequential (``unr``, ``ord``): the automatic mapper leaves
    their loops as they are, inside each work item."""
    return frozenset(n for n, tags in kernel.iname_tags.items()
                     if any(str(t) in ("ord", "unr") for t in tags))


def fixed_note(kernel: Kernel, iname: str) -> str:
    tags = ", ".join(sorted(str(t) for t in kernel.tags_of(iname)))
    return (f"the loop over {iname} is tagged '{tags}' by a pragma, and the automatic mapping "
            "does not change a loop the user tagged (map the region yourself with "
            "split_iname/tag_inames, or remove the tag)")


class ReductionBand(list):
    """A band of one loop that is parallel as a reduction; `outer_tag` is "g.0" or None (the
    outer loop of the split stays sequential: one work group reduces everything)."""

    def __init__(self, iname: str, outer_tag: str | None) -> None:
        super().__init__([iname])
        self.outer_tag = outer_tag


def reduction_band(kernel: Kernel, iname: str) -> tuple[ReductionBand | None, str]:
    """The loop over `iname` mapped as an order-independent reduction (module docstring), on
    the groups if possible; or None and a note when it is a reduction that could be mapped
    explicitly."""
    inexact = []
    for outer_tag in ("g.0", None):
        verdict = _maps_as_reduction(kernel, iname, outer_tag)
        if verdict == "exact" or (verdict == "inexact" and kernel.options.reassociate):
            return ReductionBand(iname, outer_tag), ""
        if verdict == "inexact":
            inexact.append(outer_tag)
    if not inexact:
        return None, ""
    outer = f'outer_tag="{inexact[0]}", ' if inexact[0] else ""
    pragma = f'split_iname("{iname}", {GROUP_SHAPES[1][0]}, {outer}inner_tag="l.0")'
    prefix = directive_prefix(kernel)
    return None, ("; it is a floating-point reduction, which the automatic mapping keeps "
                  "sequential (in parallel a sum is rounded differently, a minimum such as "
                  f"`m < v ? m : v` may keep another NaN or zero); {_ADVICE} "
                  f"{_extent_text(kernel, iname)}: "
                  f"add the line `{prefix}set_options(reassociate=True)` after the kernel "
                  "directive (or translate with --reassociate), or allow reassociation by "
                  f"mapping it explicitly, e.g. {prefix}{pragma}")


_ADVICE = "with reassociation it runs in parallel over"


def profile_hint(reason: str) -> str:
    """What ``TRANSLATE_PROFILE`` says of a sequential region (`reason`: why it is) when it
    dominates the kernel time: the reassociation advice of `reduction_band`, or nothing."""
    at = reason.find(_ADVICE)
    return "" if at < 0 else "it runs on one work item; " + reason[at:]


def directive_prefix(kernel: Kernel) -> str:
    """The directive sentinel of the region's kernel line as the user wrote it
    (``!$translate ``, ``#pragma translate ``), so that a suggested line can be pasted."""
    line = (kernel.span.source_line or "") if kernel.span is not None else ""
    match = re.match(r"\s*(\S*translate\s+)kernel\b", line, re.IGNORECASE)
    if match is None:
        match = re.match(r"\s*(#\s*pragma\s+translate\s+)kernel\b", line)
    return match.group(1) if match else ""


def _extent_text(kernel: Kernel, iname: str) -> str:
    """"the N iterations of loop `iname`" with N as an expression in the parameters."""
    try:
        count = hardware_range(statement_domain(kernel.domains, [iname]), iname)[1]
    except DomainError:
        return f"the iterations of loop {iname}"
    return f"the {count} iterations of loop {iname}"


def _maps_as_reduction(kernel: Kernel, iname: str, outer_tag: str | None) -> str:
    """"exact", "inexact" (a parallel reduction that changes rounding) or "no"."""
    import transforms
    size = GROUP_SHAPES[1][0]
    probe = transforms.split_iname(kernel, iname, size, outer_tag=outer_tag, inner_tag="l.0")
    new_inames = probe.all_inames - kernel.all_inames
    rewritten = _proved_reductions(probe)
    if rewritten is None:
        return "no"
    before = probe.id_to_statement
    # statements the stage added or rewired without a reduction of their own (a private
    # partial result and its initialisation: `translator.analysis.private_accumulators`)
    # change nothing of the mapping's exactness
    changed = [s for s in rewritten.statements
               if s is not before.get(s.id) and reductions_in(s.read_expressions())]
    if not changed:
        return "no"
    # a reduction tree inside the sequential outer loop would need barriers in a loop whose
    # length differs between work items: every accumulation must cover the whole loop
    if outer_tag is None and any(s.within_inames & new_inames for s in changed):
        return "no"
    verdicts = _verdicts(probe, rewritten, changed, atomic=outer_tag is not None)
    return "no" if "no" in verdicts else "inexact" if "inexact" in verdicts else "exact"


def _proved_reductions(probe: Kernel) -> Kernel | None:
    """`probe` (a reduction mapping's candidate) with its accumulations across the hardware
    loops rewritten as reductions and proved legal; None where none is recognised (no
    reduction to map: the legality proof is skipped) or the proof fails."""
    try:
        rewritten = recognize_parallel_reductions(probe)
        if rewritten is probe:
            return None
        return check_mappings(rewritten)
    except LegalityError:
        return None


def _verdicts(probe: Kernel, rewritten: Kernel, changed: list[Statement], *,
              atomic: bool) -> set[str]:
    """The `_exactness` of every statement the reduction stage `changed` (`probe` before it,
    `rewritten` after), "inexact" also for a floating-point minimum written as a selection
    that takes NaN terms (`unordered_selection`): its tree is not the source's order."""
    before = probe.id_to_statement
    verdicts = {_exactness(rewritten, s, atomic=atomic) for s in changed}
    if any(unordered_selection(probe, before[s.id]) for s in changed
           if s.id in before and isinstance(s, Assignment)):
        verdicts.add("inexact")
    return verdicts


def _exactness(kernel: Kernel, stmt: Statement, *, atomic: bool) -> str:
    """"exact" when every reduction of `stmt` gives the same bits in any order, "inexact" for
    floating-point sums and products, "no" when one cannot run (as an atomic update when
    `atomic`)."""
    from translator.ir.expr import IRWalkMapper, Reduction
    from translator.ir.types import TypeOracle, infer_unknown_types
    oracle = TypeOracle(infer_unknown_types(kernel))
    found: list[str] = []

    class _Walk(IRWalkMapper):
        def visit(self, expr, *args, **kwargs) -> bool:
            if is_arg_reduction(expr):      # a selection: the same bits in any order
                found.append("exact")
            elif isinstance(expr, Reduction):
                dtype = oracle.dtype(expr.expr)
                if dtype is None or (atomic and (dtype.kind not in "iuf"
                                                 or dtype.itemsize not in (4, 8))):
                    found.append("no")
                elif expr.operation in ("max", "min") or dtype.kind in "iu":
                    found.append("exact")
                else:
                    found.append("inexact")
            return True

    for e in stmt.read_expressions():
        _Walk()(e)
    if not found or "no" in found:
        return "no"
    return "inexact" if "inexact" in found else "exact"


def _tagged(kernel: Kernel, iname: str) -> Kernel:
    return kernel.copy(iname_tags=FrozenDict({iname: frozenset([GroupTag(0)])}))


def hardware_axes(kernel: Kernel, bands: list[list[str]]) -> list[list[str]]:
    """Every band reduced to the loops that go onto the hardware, local axis 0 first: one or
    two loops in coalescing order (`coalescing_order`); three when every band of the kernel
    has at least three loops (`axes_3d`), else the best two of a longer band."""
    depth = 3 if all(len(b) >= 3 and not isinstance(b, (ReductionBand, GridReductionBand))
                     for b in bands) else 2
    out: list[list[str]] = []
    for band in bands:
        if isinstance(band, (ReductionBand, GridReductionBand)):
            out.append(band)
        elif len(band) <= 2:
            out.append(coalescing_order(kernel, band))
        else:
            out.append(axes_3d(kernel, band, GROUP_SHAPES[3][:depth]))
    return out


def axes_3d(kernel: Kernel, band: list[str], sizes: tuple[int, ...]) -> list[str]:
    """One loop of `band` per axis of `sizes` (local sizes, l.0 first), axis by axis: the best
    remaining loop in coalescing order whose trip count is not a constant smaller than the
    axis's size (a 3-iteration loop would leave 29 of 32 lanes idle), or the best remaining
    loop if all are that short."""
    remaining = coalescing_order(kernel, band)
    chosen: list[str] = []
    for size in sizes:
        fits = [n for n in remaining
                if (length := constant_length(kernel, n)) is None or length >= size]
        pick = (fits or remaining)[0]
        chosen.append(pick)
        remaining.remove(pick)
    return chosen


def constant_length(kernel: Kernel, iname: str) -> int | None:
    """The trip count of the loop over `iname` if it is a constant, else None."""
    domain = kernel.domains[kernel.domain_index_of(iname)]
    lower = static_lower_bound(domain, iname)
    return None if lower is None else static_length(domain, iname, lower)


def coalescing_order(kernel: Kernel, band: list[str]) -> list[str]:
    """`band` reordered so that the loop that scatters the fewest bytes of global accesses
    comes first (local axis 0), then the one with stride one in the most bytes
    (`translator.analysis.coalescing`); ties keep the band's order."""
    if len(band) < 2:
        return list(band)   # nothing to order: no need to score the accesses
    scores = coalescing_scores(kernel, band)
    return sorted(band, key=lambda n: (*coalescing_key(scores, n), band.index(n)))


def warn_uncoalesced(kernel: Kernel) -> None:
    """``-Wuncoalesced`` for every loop the user put on local axis 0 that does not have stride
    one in the dominant global accesses of its statements while another loop does."""
    for l0 in sorted(n for n in kernel.all_inames if LocalTag(0) in kernel.tags_of(n)):
        stmts = [s for s in kernel.statements if l0 in s.within_inames]
        if not stmts:
            continue
        order = {n: k for k, n in enumerate(loop_order(kernel))}
        candidates = sorted({n for s in stmts for n in s.within_inames},
                            key=lambda n: (order.get(n, len(order)), n))
        scores = coalescing_scores(kernel, candidates, stmts, _work_item_runs(kernel, stmts))
        best = min(candidates, key=lambda n: (*coalescing_key(scores, n), candidates.index(n)))
        if best == l0 or scores.scattered[best] >= scores.scattered[l0] \
                or scores.unit[best] == 0:
            continue
        warn("uncoalesced",
             f"local axis 0 (l.0) runs the loop over {l0}, whose neighbouring values access "
             f"elements far apart in {scores.scattered[l0]:g} of the {scores.total} bytes one "
             f"iteration moves (uncoalesced); the loop over {best} has stride one in "
             f"{scores.unit[best]} of them: map {best} to l.0 instead",
             _first_span(kernel, stmts))


def _work_item_runs(kernel: Kernel, stmts: list[Statement]) -> dict[str, int]:
    """The unrolled, ilp and vector inames of `stmts` with constant trip counts: loops each
    work item runs itself (`coalescing_scores`' runs)."""
    lanes = (UnrollTag, IlpUnrollTag, IlpSeqTag, VectorizeTag)
    out = {}
    for n in sorted({n for s in stmts for n in s.within_inames}):
        if any(isinstance(t, lanes) for t in kernel.tags_of(n)):
            length = constant_length(kernel, n)
            if length is not None:
                out[n] = length
    return out


def _first_span(kernel: Kernel, stmts: list[Statement]):
    return next((s.span for s in stmts if s.span is not None), kernel.span)


def _apply(kernel: Kernel, bands: list[list[str]]) -> tuple[Kernel, AutoMapping]:
    """Split every band's loops onto the hardware with one work-group shape for the kernel."""
    import transforms
    shape = _VARIANT.get().shape(max(len(b) for b in bands))
    pragmas: list[str] = []
    kind = ""
    for band in bands:
        if isinstance(band, GridReductionBand):     # alone in its kernel (one nest)
            kernel = band.apply(kernel)
            pragmas.extend(band.pragmas())
            kind = band.describe()
            continue
        for axis, iname in enumerate(band):
            size = shape[axis]
            if size == 1:
                kernel = transforms.tag_inames(kernel, {iname: f"g.{axis}"})
                pragmas.append(f'tag_inames("{iname}:g.{axis}")')
                continue
            outer = getattr(band, "outer_tag", f"g.{axis}")
            kernel = transforms.split_iname(kernel, iname, size, outer_tag=outer,
                                            inner_tag=f"l.{axis}")
            outer_arg = f'outer_tag="{outer}", ' if outer else ""
            pragmas.append(f'split_iname("{iname}", {size}, {outer_arg}inner_tag="l.{axis}")')
    return kernel, AutoMapping(tuple(pragmas), kind=kind)
