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

import re
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from translator.diagnostics import TranslatorError
from translator.ir.kernel import Kernel


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
    tagged_by = {} if tagged_by is None else tagged_by
    for call in calls:
        # case-insensitive names (Fortran) resolve against the kernel as it is now
        call = call.for_kernel(kernel) if hasattr(call, "for_kernel") else call
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
    code: Any
    #: Pragma lines chosen by the automatic mapper (empty if the user mapped the region).
    auto_mapping: tuple[str, ...] = ()
    #: Why the automatic mapper left the region sequential, if it did.
    sequential_reason: str = ""


def run_region(kernel: Kernel, calls: Sequence[Any],
               opts: PassOptions | None = None) -> RegionResult:
    """The whole pipeline for one region: transforms, privatisation, automatic mapping, the
    kernel stages, then code generation."""
    from translator.automap import auto_map
    from translator.codegen.opencl import generate_code
    opts = opts or PassOptions()
    chosen = []
    tagged_by: dict[str, Any] = {}

    def mapping_stage(k: Kernel) -> Kernel:
        k, mapping = auto_map(k)
        chosen.append(mapping)
        return k

    def locate(err: TranslatorError) -> Any:
        return _tagging_pragma(err, tagged_by)

    stages = (("transforms", lambda k: apply_transform_calls(k, calls, tagged_by)),
              ("privatize", privatize_arrays),
              ("auto-map", mapping_stage)) + KERNEL_STAGES
    for name, stage in stages:
        kernel = _timed(opts, name, stage, kernel, locate)
        if opts.print_ir_after_all:
            from translator.ir.printer import print_kernel
            opts.log(f"// IR after {name}\n{print_kernel(kernel)}")
    code = _timed(opts, "codegen", generate_code, kernel, locate)
    mapping = chosen[0]
    return RegionResult(kernel, code, mapping.pragmas, mapping.reason)


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


def _tagging_pragma(err: TranslatorError, tagged_by: dict[str, Any]) -> Any:
    """The pragma that tagged an iname the error names: later stages (codegen, the automatic
    mapper) report tag problems without a location, and the pragma is where to fix them."""
    for name in re.findall(r"iname '([^']+)'", err.message):
        if name in tagged_by:
            return tagged_by[name]
    return None


def _timed(opts: PassOptions, name: str, fn: Callable, arg,
           locate: Callable[[TranslatorError], Any] | None = None):
    t0 = time.perf_counter()
    try:
        return fn(arg)
    except TranslatorError as err:
        region = getattr(arg, "span", None)
        if locate is not None and err.span in (None, region):
            # no better place than the kernel line: the pragma that tagged the iname is one
            err.span = locate(err) or err.span
        raise err.with_span(region)
    finally:
        opts.timings[name] = opts.timings.get(name, 0.0) + time.perf_counter() - t0
