"""The region pipeline: one kernel in, generated code out.  Each stage is named, in order.

Ordering restrictions:
- transforms run first and in pragma order: later calls name inames earlier ones created;
- privatisation runs after them (it asks which loops enclose a work array's uses, which
  splits change) and before automatic mapping, whose legality checks it makes pass;
- automatic mapping runs after them and only when they mapped nothing (the user's mapping
  always wins); it needs the final iname structure, so it cannot run earlier;
- parallel-reduction recognition runs after automatic mapping (it needs the final tags: an
  accumulation is a parallel reduction only across hardware-parallel loops) and before
  legality, which then sees the reduction instead of a race;
- type inference runs after transforms (they may add temporaries of unknown type) and before
  analysis and codegen, which need every dtype;
- legality analysis runs on the final kernel, after every transform, so the verdict covers
  the mapping that is actually emitted;
- codegen is last and never changes the kernel.
"""

from __future__ import annotations

import gc
import re
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import field
from typing import Any

from translator.diagnostics import TranslatorError
from translator.ir.kernel import Kernel
from translator.records import dataclass


@dataclass
class PassOptions:
    """How the pipeline reports on itself (``--print-ir-after-all``, ``--time-passes``)."""

    print_ir_after_all: bool = False
    time_passes: bool = False
    log: Callable[[str], None] = print
    timings: dict[str, float] = field(default_factory=dict)


def apply_transform_calls(kernel: Kernel, calls: Sequence[Any],
                          tagged_by: dict[str, Any] | None = None) -> Kernel:
    """Apply a region's transform pragmas in order (each carries its span for errors), then
    check the work groups they ask for, blaming the pragma that tagged the iname.  `tagged_by`
    receives, per iname, the span of the last pragma that changed its tags."""
    import transforms
    from transforms.registry import fold_names
    tagged_by = {} if tagged_by is None else tagged_by
    for call in calls:
        # case-insensitive names (Fortran) resolve against the kernel as it is now
        if getattr(call, "case_insensitive", False):
            call = fold_names(call, kernel)
        before = kernel
        try:
            kernel = transforms.apply_call(kernel, call.name, call.args, dict(call.kwargs),
                                           span=call.span)
        except TranslatorError as err:
            raise _respelled(err, getattr(call, "spellings", ()))
        if kernel.iname_tags is not before.iname_tags:
            tagged_by.update({n: call.span for n in kernel.all_inames
                              if kernel.tags_of(n) != before.tags_of(n)})
    check_work_groups(kernel, tagged_by)
    return kernel


def _respelled(err: TranslatorError, spellings: Sequence[tuple[str, str]]) -> TranslatorError:
    """Quoted names in the message as the source spells them."""
    for name, source in spellings:
        err.message = err.message.replace(f"'{name}'", f"'{source}'")
    return err


#: The largest work group the translator emits: no OpenCL GPU accepts more than 1024 work
#: items per group (NVIDIA, AMD, Intel: 1024 or less; the OpenCL specification guarantees
#: only 1).  Groups above `WORK_GROUP_WARN` are named in ``--report``: some devices stop at
#: 256, and the runtime then reports CL_DEVICE_MAX_WORK_GROUP_SIZE at the region's call.
MAX_WORK_GROUP = 1024
WORK_GROUP_WARN = 256


def check_work_groups(kernel: Kernel, tagged_by: dict[str, Any]) -> None:
    """Every local axis has a constant size, and a group holds at most `MAX_WORK_GROUP` work
    items; errors point at the pragma that tagged the iname (`tagged_by`)."""
    from translator.diagnostics import TransformError
    from translator.ir.isl_glue import hardware_range, statement_domain
    from translator.ir.tags import LocalTag
    sizes: dict[int, tuple[int, str]] = {}
    for iname in sorted(kernel.all_inames):
        tag = kernel.tag_of(iname, LocalTag)
        if tag is None or iname not in tagged_by:
            continue
        try:
            _, count, extent = hardware_range(statement_domain(kernel.domains, [iname]), iname)
        except TranslatorError:
            continue   # an ill-formed domain: codegen reports it
        if extent is None:
            raise TransformError(
                f"iname {iname!r} is tagged {tag} but its number of values ({count}) is not a "
                "constant: the work-group size must be known at translation (split the iname "
                "with a constant inner length and tag the inner one)", tagged_by[iname])
        if extent > sizes.get(tag.axis, (0, ""))[0]:
            sizes[tag.axis] = (extent, iname)
    total = 1
    for extent, _ in sizes.values():
        total *= extent
    if total > MAX_WORK_GROUP:
        shape = " x ".join(str(sizes[a][0]) for a in sorted(sizes))
        biggest = max(sizes.values())[1]
        raise TransformError(
            f"work groups of {total} work items ({shape}) are larger than any OpenCL GPU "
            f"accepts (at most {MAX_WORK_GROUP}; the device's CL_DEVICE_MAX_WORK_GROUP_SIZE, "
            "often 256 to 1024): use a smaller inner length for the local axes",
            tagged_by[biggest])


def without_statements_that_never_run(kernel: Kernel) -> Kernel:
    """`kernel` without the statements whose loops run no iteration for any parameter value
    (``for (j = 0; j < 0; j++)``, or ``do j = 1, i`` inside ``do i = -3, -1``): they do
    nothing, and a loop that never runs has no bounds for codegen to print.  Ordering
    restriction: after the transforms, whose pragmas may name those statements and loops."""
    from translator.ir.isl_glue import never_runs
    from translator.ir.slicing import without_statements
    empty = {inames: never_runs(kernel.domains, inames)     # one isl test per loop nest
             for inames in {s.within_inames for s in kernel.statements if s.within_inames}}
    dead = {s.id for s in kernel.statements if s.within_inames and empty[s.within_inames]}
    return without_statements(kernel, dead) if dead else kernel


def privatize_arrays(kernel: Kernel) -> Kernel:
    """Work arrays written before being read in every iteration become private."""
    from translator.analysis.privatize import privatize
    return privatize(kernel)


def infer_types(kernel: Kernel) -> Kernel:
    from translator.ir.types import infer_unknown_types
    return infer_unknown_types(kernel, expect_completion=True)


def recognize_reductions(kernel: Kernel) -> Kernel:
    """Accumulations across hardware-parallel loops become explicit reductions."""
    from translator.analysis.reductions import recognize_parallel_reductions
    return recognize_parallel_reductions(kernel)


def check_legality(kernel: Kernel) -> Kernel:
    """Every parallel mapping proved race-free, or a `LegalityError` with a witness."""
    from translator.analysis.legality import check_kernel
    return check_kernel(kernel)


#: Kernel -> Kernel stages after the mapping is fixed (the user's transforms, privatisation
#: and automatic mapping come first: `run_region` lists the whole pipeline).
KERNEL_STAGES: tuple[tuple[str, Callable[[Kernel], Kernel]], ...] = (
    ("parallel-reductions", recognize_reductions),
    ("infer-types", infer_types),
    ("legality", check_legality),
)


@dataclass
class RegionResult:
    kernel: Kernel
    #: A `GeneratedCode` (one launch) or a `HostProgramCode` (several kernels, host loops).
    code: Any
    #: Pragma lines chosen by the automatic mapper (empty if the user mapped the region).
    auto_mapping: tuple[str, ...] = ()
    #: Why the automatic mapper left the region sequential, if it did.
    sequential_reason: str = ""
    #: The final kernel of each launch, in program order (one entry for a one-launch region).
    kernels: tuple[Kernel, ...] = ()
    #: What chose `auto_mapping` when not the simple mapping ("dense tiling (automatic)").
    auto_kind: str = ""
    #: ``--report`` lines of a region mapped from a tuning file (`translator.tuning`).
    tuning: tuple[str, ...] = ()


def run_region(kernel: Kernel, calls: Sequence[Any],
               opts: PassOptions | None = None) -> RegionResult:
    """The whole pipeline for one region: transforms, privatisation, then either one kernel
    (automatic mapping, the kernel stages, code generation) or, when one kernel cannot run in
    parallel, a host program (`translator.split`) whose kernels each go through those stages.

    An error of a later stage about an iname that a pragma tagged, located at no better place
    than the region's kernel line, points at that pragma instead."""
    tagged_by: dict[str, Any] = {}
    try:
        return _run_region(kernel, calls, opts or PassOptions(), tagged_by)
    except TranslatorError as err:
        if err.span in (None, kernel.span):
            err.span = _tagging_pragma(err, tagged_by) or err.span
        raise


def keep_first_elements(kernel: Kernel, calls: Sequence[Any]) -> Kernel:
    """`kernel` assuming the parameter values that keep its pointers' and dummies' accesses
    at or after the first element the region moves (`translator.analysis.bounds.
    first_element_assumptions`, which refuses the accesses no such condition can keep); the
    region's own ``assume(...)`` pragmas count (applied here to a copy; the transforms stage
    applies them to the kernel, and reports one it cannot apply)."""
    if not kernel.options.extra.get("first_elements"):
        return kernel
    from transforms.parameters import assume
    from translator.analysis.bounds import first_element_assumptions
    from translator.ir.isl_glue import intersect_params
    checked = kernel
    for call in calls:
        if call.name == "assume" and len(call.args) == 1 and not call.kwargs:
            try:
                checked = assume(checked, call.args[0])
            except TranslatorError:
                continue
    added = first_element_assumptions(checked)
    if added is None:
        return kernel
    return kernel.copy(assumptions=intersect_params(kernel.assumptions, added))


def _tagging_pragma(err: TranslatorError, tagged_by: dict[str, Any]) -> Any:
    """The pragma that tagged an iname the error names: later stages (codegen, the automatic
    mapper) report tag problems without a location, and the pragma is where to fix them."""
    for name in re.findall(r"iname '([^']+)'", err.message):
        if name in tagged_by:
            return tagged_by[name]
    return None


def _run_region(kernel: Kernel, calls: Sequence[Any], opts: PassOptions,
                tagged_by: dict[str, Any]) -> RegionResult:
    for name, stage in (("first_elements", lambda k: keep_first_elements(k, calls)),
                        ("transforms", lambda k: apply_transform_calls(k, calls, tagged_by)),
                        ("never-run", without_statements_that_never_run),
                        ("privatize", privatize_arrays)):
        kernel = _timed(opts, name, stage, kernel)
        _print_ir(opts, name, kernel)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            single, mapping = _map_and_check(kernel, opts)
            failure = None
        except TranslatorError as err:
            single, mapping, failure = None, None, err
    parallel = failure is None and not mapping.reason and not _values_leave_loops(kernel)
    if parallel and not _apart_may_pay(kernel):
        return _single_result(single, mapping, caught, opts)
    checks = LeafChecks()
    checks.known(kernel, None if failure else (single, mapping), warned=bool(caught))
    plan = _timed(opts, "split", lambda k: _plan(k, checks, parallel), kernel)
    if plan is None or parallel and len(plan.parts) < 2:
        if failure is not None:
            _reemit(caught)
            raise failure
        return _single_result(single, mapping, caught, opts)
    return _program_result(plan, opts, checks)


def _map_and_check(kernel: Kernel, opts: PassOptions, label: str = ""):
    """Automatic mapping and the kernel stages: (final kernel, `AutoMapping`)."""
    from translator.automap import auto_map
    chosen = []

    def mapping_stage(k: Kernel) -> Kernel:
        k, mapping = auto_map(k, label=label)
        chosen.append(mapping)
        return k

    given = kernel.assumptions
    for name, stage in (("bound-assumptions", bound_assumptions), ("auto-map", mapping_stage)
                        ) + KERNEL_STAGES:
        kernel = _timed(opts, name, stage, kernel)
        _print_ir(opts, name, kernel)
    return _without_unused_bounds(kernel, given), chosen[0]


def bound_assumptions(kernel: Kernel) -> Kernel:
    """Parameter values keeping subscripts inside their extents, where legality needs them
    (`translator.analysis.bounds.bound_assumptions`); the glue checks them at each call."""
    from translator.analysis.bounds import bound_assumptions as add
    return add(kernel)


def _without_unused_bounds(kernel: Kernel, given: Any) -> Kernel:
    """Ordering restriction: after legality.  A kernel that runs as one work item needs no
    bound assumption (it races with nobody): the call is not restricted for it."""
    from translator.analysis.legality import parallel_inames
    if kernel.assumptions is given or parallel_inames(kernel):
        return kernel
    return kernel.copy(assumptions=given)


def _print_ir(opts: PassOptions, name: str, kernel: Kernel) -> None:
    if opts.print_ir_after_all:
        from translator.ir.printer import print_kernel
        opts.log(f"// IR after {name}\n{print_kernel(kernel)}")


def _reemit(caught) -> None:
    for w in caught:
        warnings.warn(w.message, stacklevel=2)


def _single_result(kernel: Kernel, mapping, caught, opts: PassOptions) -> RegionResult:
    from translator.codegen.opencl import generate_code
    _reemit(caught)
    code = _timed(opts, "codegen", generate_code, kernel)
    return RegionResult(kernel, code, mapping.pragmas, mapping.reason, (kernel,),
                        auto_kind=mapping.kind)


def _values_leave_loops(kernel: Kernel) -> bool:
    from translator.split import values_leaving_loops
    return bool(values_leaving_loops(kernel))


class LeafChecks:
    """The splitter's test of a candidate kernel (`__call__`): whether it runs in parallel
    after automatic mapping (or as the user mapped it) and passes every kernel stage; no
    warning escapes.  A candidate that passed without any warning is remembered, so that the
    launch made of the same statements is not mapped and checked a second time (`reuse`)."""

    def __init__(self) -> None:
        self._passed: dict[Kernel, tuple[Kernel, Any]] = {}
        self._failed: set[Kernel] = set()
        self._verdicts: dict[Kernel, bool] = {}

    def __call__(self, kernel: Kernel) -> bool:
        key = _unnamed(kernel)
        if key in self._verdicts:
            return self._verdicts[key]
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                found = _map_and_check(kernel, PassOptions())
            except TranslatorError:
                found = None
        passed = found is not None and not found[1].reason
        return self._record(key, kernel, passed, found, bool(caught))

    def known(self, kernel: Kernel, found: tuple[Kernel, Any] | None, warned: bool) -> None:
        """The pipeline's own check of the whole region `kernel`: `found` (final kernel,
        mapping), None where a stage failed; `warned`: whether a warning came.  A candidate
        equal to `kernel` but for its name (the splitter's candidate of every statement,
        where nothing was globalised and `sub_kernel` dropped no argument, domain or intent
        flag) gets this verdict instead of a second mapping and check."""
        passed = found is not None and not found[1].reason
        self._record(_unnamed(kernel), kernel, passed, found, warned)

    def _record(self, key: Kernel, kernel: Kernel, passed: bool,
                found: tuple[Kernel, Any] | None, warned: bool) -> bool:
        if found is None:
            self._failed.add(key)
        ok = passed and not _values_leave_loops(kernel)
        if ok and not warned:
            self._passed[key] = found
        self._verdicts[key] = ok
        return ok

    def runs(self, kernel: Kernel) -> bool:
        """Whether `kernel` passes every kernel stage, in parallel or on one work item."""
        self(kernel)
        return _unnamed(kernel) not in self._failed

    def reuse(self, kernel: Kernel) -> tuple[Kernel, Any] | None:
        """(final kernel, mapping) of a candidate equal to `kernel` but for its name."""
        found = self._passed.get(_unnamed(kernel))
        if found is None:
            return None
        return found[0].copy(name=kernel.name), found[1]


def _unnamed(kernel: Kernel) -> Kernel:
    return kernel.copy(name="")


def _apart_may_pay(kernel: Kernel) -> bool:
    """Whether a region that runs as one parallel kernel has large nests that may run
    faster launched apart (`translator.split.large_nests`): only then is it cut."""
    from translator.split import groups, large_nests
    # fewer than two loop nests cannot hold two large ones (no estimate needed)
    nests = sum(1 for top, _ in groups(kernel, kernel.statements, ()) if top is not None)
    return nests >= 2 and large_nests(kernel) >= 2


def _plan(kernel: Kernel, checks: LeafChecks, parallel: bool = False):
    from translator.split import plan_region
    if any(a.is_image for a in kernel.array_args):
        return None   # images are per-launch arguments: one kernel only
    return plan_region(kernel, checks, parallel)


def _program_result(plan, opts: PassOptions, checks: LeafChecks) -> RegionResult:
    """Each launch of `plan` through mapping, stages and codegen; the host program around."""
    from translator.codegen.opencl import generate_code, host_view, kernel_params
    from translator.codegen.program import (HostLoopCode, HostProgramCode, KernelLaunch,
                                            region_params)
    from translator.split import HostLoop, loop_order
    finals: list[Kernel] = []

    def lower(parts) -> tuple:
        out = []
        for part in parts:
            if isinstance(part, HostLoop):
                out.append(HostLoopCode(iname=part.iname, lower=part.lower, upper=part.upper,
                                        body=lower(part.body)))
                continue
            k, mapping = _launch_kernel(part.kernel, opts, checks, plan.kernel.name)
            finals.append(k)
            out.append(KernelLaunch(code=_timed(opts, "codegen", generate_code, k),
                                    mapping=mapping.pragmas,
                                    sequential_reason=mapping.reason,
                                    mapping_kind=mapping.kind,
                                    loops=tuple(loop_order(part.kernel))))
        return tuple(out)

    body = lower(plan.parts)
    params, buffers = region_params(kernel_params(host_view(plan.kernel)), body,
                                    plan.device_buffers)
    code = HostProgramCode(name=plan.kernel.name, params=params, buffers=buffers, body=body)
    pragmas = tuple(line for launch, _ in code.launches() for line in launch.mapping)
    return RegionResult(plan.kernel, code, pragmas, "", tuple(finals))


def _launch_kernel(kernel: Kernel, opts: PassOptions, checks: LeafChecks, label: str):
    """A launch's final kernel and mapping: those the splitter already proved for the same
    statements, or automatic mapping and the kernel stages now."""
    found = None if opts.print_ir_after_all else checks.reuse(kernel)
    return found or _map_and_check(kernel, opts, label=label)


@contextmanager
def file_stage(opts: PassOptions | None, name: str) -> Iterator[None]:
    """Time a file-level stage around the region pipeline (``parse`` before it, ``rewrite``
    and ``host-glue`` after it) into the same ``--time-passes`` table."""
    t0 = time.perf_counter()
    try:
        yield
    finally:
        if opts is not None:
            opts.timings[name] = opts.timings.get(name, 0.0) + time.perf_counter() - t0


#: The youngest generation's collection threshold while a file is translated (Python's
#: default is 700 allocations).  Parsing and the passes allocate millions of short-lived
#: objects (parse trees, expressions, isl objects) beside long-lived ones; collecting every
#: 700 allocations made the collector scan them over and over (about a tenth of the time of
#: a 400-loop region); reference counting still frees almost everything at once.
GC_THRESHOLD = 100_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect cycles less often while translating (`GC_THRESHOLD`); the thresholds before are
    restored after."""
    saved = gc.get_threshold()
    gc.set_threshold(max(saved[0], GC_THRESHOLD), *saved[1:])
    try:
        yield
    finally:
        gc.set_threshold(*saved)


def _timed(opts: PassOptions, name: str, fn: Callable, arg):
    t0 = time.perf_counter()
    try:
        return fn(arg)
    except TranslatorError as err:
        raise err.with_span(getattr(arg, "span", None))
    finally:
        opts.timings[name] = opts.timings.get(name, 0.0) + time.perf_counter() - t0
