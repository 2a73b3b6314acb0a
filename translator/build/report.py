"""The offload report (``translate --report``): per region, what runs where and what it costs.

Like a compiler's optimisation report, one block per region::

    region saxpy_k at saxpy.f90:17 (in saxpy)
      your pragmas:
        !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
      parallel inames:
        i_inner  l.0  legal
        i_outer  g.0  legal
      asserted independent: none
      private temporaries: none
      launch grid: global (...), local (128)
      data per call: ...

The text depends only on the translation result, so it is deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pymbolic.primitives as p

from translator.codegen.result import GeneratedCode, KernelParam
from translator.diagnostics import readable_names, source_names
from translator.ir.data import AddressSpace
from translator.ir.kernel import Kernel
from translator.launch_cost import launches_text, parallel_speedup
from translator.passthrough import no_regions_report

#: The directive prefix a user pastes, per source language.
PRAGMA_PREFIX = {"fortran": "!$translate ", "c": "#pragma translate "}


def literal(value: Any) -> str:
    """`value` written as a pragma argument (a Python literal, strings in double quotes)."""
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda kv: repr(kv[0]))
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in items) + "}"
    return repr(value)


def call_text(call: Any) -> str:
    """A `TransformCall` as the pragma text that produces it."""
    args = [literal(a) for a in call.args] + [f"{k}={literal(v)}" for k, v in call.kwargs]
    return f"{call.name}({', '.join(args)})"


def mapping_lines(region: Any, done: Any, language: str) -> list[str]:
    """How the region is mapped: the user's pragmas, the automatic choice, or why it is
    sequential."""
    prefix = PRAGMA_PREFIX.get(language, "")
    lines = pragma_lines(region, prefix)
    if done.auto_mapping:
        lines += ["mapping (automatic; paste these lines after the kernel directive to keep "
                  "or edit it):"] + [f"  {prefix}{line}" for line in done.auto_mapping]
        tuning = getattr(done, "tuning", ())   # `translator.tuning.report_lines`
        tuned = bool(tuning) and tuning[0].startswith("chosen by:")
        lines += [f"chosen by: {done.auto_kind}"] if done.auto_kind and not tuned else []
        lines += list(tuning)
    elif done.sequential_reason:
        lines.append(f"mapping: sequential (one work item): {done.sequential_reason}")
        lines += speedup_lines(done.sequential_reason)
    elif not region.transform_calls:
        lines.append("mapping: sequential (one work item): no loop to map")
    return lines


#: Loop lengths at which `speedup_lines` states the model's expected speed-up.
SPEEDUP_EXAMPLES = ((10**3, "10^3"), (10**6, "10^6"), (2**25, "2^25"))


def speedup_lines(reason: str) -> list[str]:
    """For a region kept sequential because its floating-point sum needs reassociation
    (`translator.automap.reduction_band`'s advice in `reason`): the speed-up that the
    suggested line is expected to give (`translator.launch_cost`'s model)."""
    from translator.automap import profile_hint
    if not profile_hint(reason):
        return []
    examples = ", ".join(f"{parallel_speedup(n):.0f}x at {text}"
                         for n, text in SPEEDUP_EXAMPLES)
    return [f"expected speed-up with reassociation: {examples} iterations of the loop (a "
            "model: thousands of work items at once against one; measured on an H100, a dot "
            "of 2^25 doubles ran 6300x faster)"]


def pragma_lines(region: Any, prefix: str) -> list[str]:
    """The user's transform pragmas; for a region made from OpenMP/OpenACC directives, what
    became of each directive and the pragmas it stands for."""
    notes = getattr(region, "directive_notes", ())
    lines = ["directives:"] + [f"  {n}" for n in notes] if notes else []
    if region.transform_calls:
        lines += ["pragmas from the directives:" if notes else "your pragmas:"]
        lines += [f"  {prefix}{call_text(c)}" for c in region.transform_calls]
    return lines


def verdict_lines(kernel: Kernel) -> list[str]:
    """One line per parallel iname: its tag and the legality verdict."""
    from translator.analysis.legality import check_mapping, parallel_inames
    mapped = parallel_inames(kernel)
    if not mapped:
        return ["parallel inames: none"]
    if kernel.options.trust_mappings:
        verdicts = {name: "trusted (the region asserts independence)" for name in mapped}
    else:
        verdicts = check_mapping(kernel)
    width = max(len(n) for n in mapped)
    return ["parallel inames:"] + [f"  {name.ljust(width)}  {str(tag).ljust(4)} "
                                   f"{verdicts.get(name, 'unchecked')}"
                                   for name, tag in sorted(mapped.items())]


def arg_reduction_lines(kernel: Kernel) -> list[str]:
    """One line per arg-min/arg-max reduction the mapping makes
    (`translator.analysis.arg_reductions`): its value, locations and tie rule."""
    from translator.analysis.arg_reductions import arg_reduction_text, is_arg_reduction
    from translator.analysis.reductions import recognize_parallel_reductions
    from translator.diagnostics import TranslatorError
    try:
        rewritten = recognize_parallel_reductions(kernel)
    except TranslatorError:
        return []
    return [arg_reduction_text(s) for s in rewritten.statements
            if is_arg_reduction(getattr(s, "expression", None))]


def assertion_line(kernel: Kernel) -> str:
    from translator.analysis.legality import asserted_independent
    names = sorted(asserted_independent(kernel))
    if kernel.options.trust_mappings:
        names.append("(whole region)")
    return "asserted independent: " + (", ".join(names) if names else "none")


def bounds_line(kernel: Kernel) -> str:
    """Which arrays' subscripts are proved inside their declared extents over the whole
    domain (`translator.analysis.bounds`); for the others, the first point that leaves."""
    from translator.analysis.access import kernel_accesses
    from translator.analysis.bounds import proven_in_bounds
    verdicts = proven_in_bounds(kernel, kernel_accesses(kernel))
    proved = [n for n, spill in verdicts.items() if spill is None]
    text = "in bounds (proved): " + (", ".join(proved) if proved else "none")
    others = [spill.text() for spill in verdicts.values() if spill is not None]
    return text + "".join(f"\n  not proved: {t}" for t in others)


def temporaries_line(kernel: Kernel) -> str:
    """Temporaries each work item keeps to itself (private), then the others by space."""
    parts = []
    for name in sorted(kernel.temporaries):
        tv = kernel.temporaries[name]
        space = tv.address_space or AddressSpace.PRIVATE
        dtype = np.dtype(tv.dtype).name if tv.dtype is not None else "?"
        shape = f"[{', '.join(str(s) for s in tv.shape)}]" if tv.shape else ""
        parts.append((space != AddressSpace.PRIVATE, f"{name}: {dtype}{shape}"
                      + ("" if space == AddressSpace.PRIVATE else f" ({_space(space)})")))
    private = [text for shared, text in parts if not shared]
    others = [text for shared, text in parts if shared]
    lines = ["private temporaries: " + (", ".join(private) if private else "none")]
    if others:
        lines.append("other temporaries: " + ", ".join(others))
    return "\n".join(lines)


def _space(space: AddressSpace) -> str:
    return str(getattr(space, "name", space)).lower()


def grid_line(code: GeneratedCode) -> str:
    glob = ", ".join(str(e) for e in code.global_size)
    loc = ", ".join(str(e) for e in code.local_size)
    text = f"launch grid: global ({glob}), local ({loc}) work items"
    from translator.pipeline import WORK_GROUP_WARN
    group = int(np.prod([int(x) for x in code.local_size])) if code.local_size else 1
    if group > WORK_GROUP_WARN:
        text += (f"\n  device limit: work groups of {group} work items; some devices accept "
                 f"at most {WORK_GROUP_WARN} (their CL_DEVICE_MAX_WORK_GROUP_SIZE, which "
                 "clinfo shows); on such a device the region's call fails with "
                 "CL_INVALID_WORK_GROUP_SIZE at its file:line")
    return text


def _bytes_text(params: Sequence[KernelParam]) -> str:
    """Total bytes of `params` arrays: element counts grouped by size expression, so that
    two arrays of n doubles read ``16*n B``."""
    const, by_size = 0, {}
    for kp in params:
        item = np.dtype(kp.dtype).itemsize
        size = _constant(kp.size if kp.size is not None else 0)
        if isinstance(size, int):
            const += size * item
            continue
        key = str(size)
        coef, _ = by_size.get(key, (0, size))
        by_size[key] = (coef + item, size)
    terms = [_scaled(coef, size) for _, (coef, size) in sorted(by_size.items())]
    if const or not terms:
        terms.append(str(const))
    return " + ".join(terms) + " B"


def _constant(expr: Any) -> Any:
    """`expr` as an int when it has no variables (sizes such as ``40*50``)."""
    from pymbolic import evaluate

    from translator.ir.expr import dependencies
    if isinstance(expr, (int, np.integer)):
        return int(expr)
    if dependencies(expr):
        return expr
    try:
        return int(evaluate(expr))
    except Exception:  # not a plain arithmetic expression: show it as it is
        return expr


def _scaled(coef: int, size: Any) -> str:
    text = str(size)
    if not isinstance(size, (p.Variable, p.Product, p.Call)) and not text.isidentifier():
        text = f"({text})"
    return text if coef == 1 else f"{coef}*{text}"


def data_lines(code: GeneratedCode) -> list[str]:
    """Bytes copied per call: what the kernel reads goes in (so does an output it may write
    only partly, so the copy back cannot clobber the rest; one it provably writes whole does
    not); outputs come back; images go in."""
    arrays = [kp for kp in code.params if kp.kind in ("array", "image")]
    if not arrays:
        return ["data per call: none"]
    lines = ["data per call:"]
    sent = [kp for kp in arrays if kp.is_input or not kp.overwrites]
    for kp in arrays:
        way = ("out" if kp not in sent else "in/out") if kp.is_output else "in"
        shape = ", ".join(str(s) for s in kp.shape) if kp.shape else str(kp.size)
        lines.append(f"  {kp.name}: {way}, {np.dtype(kp.dtype).name}[{shape}], "
                     f"{_bytes_text([kp])}")
    to_dev = _bytes_text(sent)
    from_dev = _bytes_text([kp for kp in arrays if kp.is_output])
    lines.append(f"  = {to_dev} to the device, {from_dev} back")
    return lines


def data_spans(data_sites: Sequence[Any]) -> list[tuple[str, int, int, Any]]:
    """(procedure, data line, end data line, the data directive's glue) per data region."""
    out, stack = [], []
    for site in data_sites:
        if site.glue.kind == "data":
            stack.append(site)
        elif site.glue.kind == "end_data" and stack:
            start = stack.pop()
            out.append((start.procedure, start.line, site.line, start.glue))
    return out


def present_lines(region: Any, code: GeneratedCode, spans: Sequence[tuple]) -> list[str]:
    """Which of the region's arrays it expects present: those in the clauses of the data
    regions around it in its procedure (they move nothing when the region is called)."""
    arrays = {kp.name.lower(): kp.name for kp in code.params if kp.kind in ("array", "image")}
    found: dict[str, int] = {}
    for proc, first, last, glue in spans:
        if proc == region.procedure and first < region.span.line < last:
            for item in glue.items:
                if item.name.lower() in arrays:
                    found.setdefault(arrays[item.name.lower()], first)
    if not found:
        return ["expects present: none from a data region around it here (arrays a caller's "
                "data region made present are used in place at run time)"]
    names = ", ".join(f"{name} (data region at line {line})"
                      for name, line in sorted(found.items()))
    return [f"expects present: {names}; these move nothing per call"]


def region_report(region: Any, kernel: Kernel, code: GeneratedCode, done: Any,
                  language: str, spans: Sequence[tuple] = ()) -> str:
    """The report block of one region (see the module docstring)."""
    span = region.span
    head = f"region {region.name} at {span.file}:{span.line} (in {region.procedure})"
    body: list[str] = []
    body += mapping_lines(region, done, language)
    body += verdict_lines(kernel)
    body += arg_reduction_lines(kernel)
    body.append(assertion_line(kernel))
    body += bounds_line(kernel).split("\n")
    body += temporaries_line(kernel).split("\n")
    body.append("launches per call: 1")
    body.append(grid_line(code))
    body += data_lines(code)
    if spans:
        body += present_lines(region, code, spans)
    return head + "\n" + _block(body, region)


def _block(body: Sequence[str], region: Any) -> str:
    """The report lines, indented, with the names the frontend made up written as the source
    text they stand for (``size(a, 1)`` for ``_tr_size_a_1``)."""
    text = "".join(f"  {line}\n" for line in body)
    return readable_names(text, dict(source_names(getattr(region, "call_args", ()))))


def file_report(source: str, language: str, regions: Iterable[tuple[Any, Kernel, Any]],
                mappings: Iterable[Any], data_sites: Sequence[Any] = (),
                directive_notes: Sequence[str] = ()) -> str:
    """The report of one translated file: a header line and one block per region;
    `data_sites` (the frontend's data directives) tell which arrays each expects present;
    `directive_notes`: the OpenMP/OpenACC directives left as written, with the reason."""
    from translator.codegen.program import HostProgramCode
    spans = data_spans(data_sites)
    blocks = [program_report(r, d.kernels, c, language, spans, getattr(d, "tuning", ()))
              if isinstance(c, HostProgramCode) else region_report(r, k, c, d, language, spans)
              for (r, k, c), d in zip(regions, mappings)]
    left = "".join(f"directive at {source}:{n}\n" for n in directive_notes)
    if not blocks:
        return no_regions_report(source) + left
    return (f"translate: report for {source}: {len(blocks)} region(s)\n" + "".join(blocks)
            + left)


# ---------------------------------------------------------------------------------------------
# regions that run as several kernels

def program_report(region: Any, kernels: Sequence[Kernel], code: Any, language: str,
                   spans: Sequence[tuple] = (), tuning: Sequence[str] = ()) -> str:
    """The report block of a region that runs as a host program: its host loops, each kernel
    with the loops it covers, its mapping, verdicts and grid, then the data moved per call;
    `tuning`: what tuning chose or tries (`translator.tuning`)."""
    span = region.span
    head = f"region {region.name} at {span.file}:{span.line} (in {region.procedure})"
    prefix = PRAGMA_PREFIX.get(language, "")
    body: list[str] = pragma_lines(region, prefix)
    count = len(code.kernels)
    body.append(f"host program: {count} kernels, launched in this order on one queue "
                "(each waits for the one before)")
    body.append(f"launches per call: {launches_text(code.body)}")
    body += list(tuning)
    finals = iter(kernels)
    body += ["  " + line for line in _program_lines(code.body, finals, prefix)]
    if code.buffers:
        body.append("device buffers (values between kernels; never copied): "
                    + ", ".join(f"{kp.name}: {np.dtype(kp.dtype).name}"
                                f"[{', '.join(str(s) for s in kp.shape or ())}]"
                                for kp in code.buffers))
    body.append("host reads back: nothing during the call (host loop bounds are parameters)")
    lines = data_lines(code)
    lines[0] = lines[0].replace("data per call", "data per call (at entry and exit only; "
                                "nothing moves between launches)")
    body += lines
    if spans:
        body += present_lines(region, code, spans)
    return head + "\n" + _block(body, region)


def _program_lines(body: Sequence[Any], finals: Any, prefix: str) -> list[str]:
    from translator.codegen.program import HostLoopCode
    from translator.codegen.cexpr import to_c
    out: list[str] = []
    for part in body:
        if isinstance(part, HostLoopCode):
            out.append(f"host loop {part.iname} = {to_c(part.lower)} .. {to_c(part.upper)}:")
            out += ["  " + line for line in _program_lines(part.body, finals, prefix)]
            continue
        kernel = next(finals)
        loops = ", ".join(part.loops) if part.loops else "none (statements outside loops)"
        out.append(f"kernel {part.code.kernel_name}: loops {loops}")
        if part.mapping:
            out += ["  mapping (automatic):"] + [f"    {prefix}{m}" for m in part.mapping]
            out += [f"  chosen by: {part.mapping_kind}"] if part.mapping_kind else []
        elif part.sequential_reason:
            out.append(f"  mapping: sequential (one work item): {part.sequential_reason}")
            out += ["  " + line for line in speedup_lines(part.sequential_reason)]
        elif not part.loops:
            out.append("  mapping: one work item")
        out += ["  " + line for line in verdict_lines(kernel)]
        out += ["  " + line for line in arg_reduction_lines(kernel)]
        out.append("  " + grid_line(part.code))
    return out
