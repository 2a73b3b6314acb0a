"""Tuning (docs/tuning.md): candidate mappings of a region, timed on the device, and builds
that use the winner.

A region without mapping pragmas is mapped by `translator.automap`; its knobs (`Variant`: the
work-group shapes, dense tiling on or off) give other legal mappings.  Each *candidate* is the
whole region pipeline run under one variant, so it is proven like any mapping (legality on the
final kernel); candidates that fail, run as several kernels, or repeat the pragmas of an
earlier one are dropped.  At most `MAX_CANDIDATES`, in `VARIANTS` order (the first is the
mapper's own choice).

``translate --tune-candidates`` emits every candidate of each tunable region and a dispatcher
with the region's glue symbol (`dispatcher_text`); the runtime (``tr_tune_begin``) runs the
first candidate unless ``TRANSLATE_TUNE=1``, when it rotates the candidates over the region's
calls, times them with profiling events and appends the result to the tuning file
(`translator.build.tunefile` reads it).  ``translate --tune-file F`` then maps each region
that has a record with the winner's variant; the emitted mapping must still be the recorded
one (same pragma text), else the region keeps its automatic mapping with a ``stale-tuning``
warning.

This module runs the pipeline, so it belongs to the driver layer (with `translator.pipeline`).
"""

from __future__ import annotations

import hashlib
import warnings
from dataclasses import replace
from typing import Any

from translator.automap import Variant, using_variant
from translator.codegen.cexpr import safe_name, to_c
from translator.codegen.host import c_string_literal
from translator.codegen.program import HostProgramCode
from translator.diagnostics import TranslatorError, warn
from translator.ir.printer import print_kernel
from translator.pipeline import PassOptions, RegionResult, run_region
from translator.records import dataclass

#: The tuner's variants, by name, in candidate order (the first is the automatic choice).
VARIANTS: tuple[tuple[str, Variant], ...] = (
    ("auto", Variant()),
    ("simple", Variant(dense=False)),
    ("g128", Variant(shapes=((1, (128,)), (2, (16, 16)), (3, (16, 16, 1))), dense=False)),
    ("g64", Variant(shapes=((1, (64,)), (2, (32, 4)), (3, (32, 4, 1))), dense=False)),
    ("g32", Variant(shapes=((1, (32,)), (2, (64, 4)), (3, (64, 4, 1))), dense=False)),
    ("row256", Variant(shapes=((1, (256,)), (2, (256, 1)), (3, (256, 1, 1))), dense=False)),
    ("row128", Variant(shapes=((1, (128,)), (2, (128, 1)), (3, (128, 1, 1))), dense=False)),
)
#: Candidates per region, at most.
MAX_CANDIDATES = 8


@dataclass(frozen=True)
class Candidate:
    """One proven mapping of a region: the variant that makes it and the pipeline's result."""

    variant: str
    label: str
    result: RegionResult

    @property
    def mapping(self) -> str:
        """The candidate's identity: its pragma lines, ``; ``-separated."""
        return "; ".join(self.result.auto_mapping)


def fingerprint(kernel: Any, calls: Any) -> str:
    """What the candidates of a region depend on: its kernel as the frontend built it (with
    the command's options) and its pragmas."""
    text = print_kernel(kernel) + "\n" + "\n".join(
        repr((c.name, tuple(c.args), tuple(c.kwargs))) for c in calls)
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def is_tunable(done: RegionResult) -> bool:
    """Whether the automatic mapper mapped the region (its kernel, or some kernel of its host
    program) in parallel: a user's mapping or a sequential region has nothing to tune."""
    return bool(done.auto_mapping)


def candidates(kernel: Any, calls: Any, opts: PassOptions | None = None) -> list[Candidate]:
    """The region's candidates (module docstring), each kernel named ``<name>__tune<k>``;
    [] when the mapper's own choice maps nothing in parallel."""
    found: list[Candidate] = []
    seen: set[tuple[str, ...]] = set()
    for name, variant in VARIANTS:
        if len(found) == MAX_CANDIDATES:
            break
        renamed = kernel.copy(name=f"{kernel.name}__tune{len(found)}")
        done = _run_quietly(renamed, calls, variant, opts)
        if done is None or not is_tunable(done) or done.auto_mapping in seen:
            if not found:
                return []   # the automatic choice itself is not tunable
            continue
        seen.add(done.auto_mapping)
        found.append(Candidate(name, _label(done, [c.label for c in found]), done))
    return found if len(found) > 1 else []


def _run_quietly(kernel: Any, calls: Any, variant: Variant, opts: PassOptions | None
                 ) -> RegionResult | None:
    """The pipeline under `variant`; None when it fails.  Its warnings are dropped (the
    region's own translation reports them once)."""
    with warnings.catch_warnings(record=True), using_variant(variant):
        warnings.simplefilter("always")
        try:
            return run_region(kernel, calls, opts)
        except TranslatorError:
            return None


def _label(done: RegionResult, taken: list[str]) -> str:
    """A short name: the work-group shape, ``dense`` first for dense tiling; for a host
    program, that of each launch mapped in parallel, joined by ``+``."""
    if isinstance(done.code, HostProgramCode):
        label = " + ".join(_shape_label(launch.code, launch.mapping_kind)
                           for launch, _ in done.code.launches() if launch.mapping)
    else:
        label = _shape_label(done.code, done.auto_kind)
    k = 2
    base = label
    while label in taken:
        label, k = f"{base} #{k}", k + 1
    return label


def _shape_label(code: Any, kind: str) -> str:
    shape = "x".join(to_c(e) for e in code.local_size)
    return f"dense {shape}" if kind else f"groups {shape}"


def variant_named(name: str) -> Variant | None:
    return dict(VARIANTS).get(name)


def tuned_result(kernel: Any, calls: Any, record: dict[str, Any], opts: PassOptions | None,
                 default: RegionResult, span: Any) -> RegionResult:
    """The region mapped with the winner of `record` (a tuning file record, checked by
    `translator.build.tunefile`), or `default` with a ``stale-tuning`` warning when the
    record no longer describes the region."""
    winner = record["candidates"][record["winner"]]
    why = _stale_reason(kernel, calls, record, default)
    variant = variant_named(winner["variant"])
    done = None
    if not why:
        done = _run_quietly(kernel, calls, variant, opts)
        if done is None or "; ".join(done.auto_mapping) != winner["mapping"]:
            why = "its winner no longer maps the region as it did when it was timed"
    if why:
        warn("stale-tuning", f"the tuning record of region {record['region']} is not used: "
             f"{why}; the automatic mapping stands (tune the program again)", span)
        return default
    return replace(done, tuning=report_lines(record))


def _stale_reason(kernel: Any, calls: Any, record: dict[str, Any],
                  default: RegionResult) -> str:
    if not is_tunable(default):
        return "the region is not mapped automatically"
    if record["fingerprint"] != fingerprint(kernel, calls):
        return "the region changed since it was tuned"
    if variant_named(record["candidates"][record["winner"]]["variant"]) is None:
        return "its winner comes from a translator version with other candidates"
    return ""


def report_lines(record: dict[str, Any]) -> tuple[str, ...]:
    """What ``--report`` says of a tuned region: where the choice comes from, each candidate
    tried with its time, the winner marked."""
    lines = [(f"chosen by: tuning, on device \"{record['device']}\", sizes "
              f"{record['size_class']}: {len(record['candidates'])} candidates tried")]
    width = max([16] + [len(c["label"]) for c in record["candidates"]])
    for k, cand in enumerate(record["candidates"]):
        mark = "*" if k == record["winner"] else " "
        lines.append(f"  {mark} {cand['label']:<{width}} {_time_text(cand)}  "
                     f"{cand['mapping']}")
    return tuple(lines)


def candidate_lines(cands: list[Candidate]) -> tuple[str, ...]:
    """What ``--report`` says of a region of a ``--tune-candidates`` build."""
    lines = [f"tuning candidates ({len(cands)}; the first runs unless TRANSLATE_TUNE=1):"]
    return tuple(lines + [f"    {k}: {c.label} ({c.variant})" for k, c in enumerate(cands)])


def _time_text(cand: dict[str, Any]) -> str:
    if not cand["calls"]:
        return f"{'not run':>11} {'':>9}"
    return f"{cand['ms']:>8.4f} ms {cand['calls']:>3} calls"


# ---------------------------------------------------------------------------------------------
# The dispatcher of a ``--tune-candidates`` build

def candidate_symbol(symbol: str, k: int) -> str:
    return f"{symbol}__tune{k}"


def dispatcher_text(region: str, source: str, where: str, print_of: str, signature: Any,
                    cands: list[Candidate], digest: str) -> str:
    """The C function with the region's glue symbol that runs one candidate per call
    (``tr_tune_begin`` chooses it) and reports its time (``tr_tune_end``).  `print_of` is
    the region's prototype; the candidate functions take the same parameters."""
    ident = "".join(ch if ch.isalnum() else "_" for ch in region)
    names = [safe_name(p.name) for p in signature.params]
    sizes = [p.name for p in signature.params if p.kind == "value" and p.dtype.kind in "iu"]
    lists = {"labels": [c.label for c in cands], "mappings": [c.mapping for c in cands],
             "variants": [c.variant for c in cands]}
    out = [(f"/* region {region} ({where}): {len(cands)} candidate mappings "
            "(translate --tune-candidates; TRANSLATE_TUNE=1 times them) */\n")]
    for key, values in lists.items():
        items = ",\n".join(c_string_literal(v, "    ") for v in values)
        out.append(f"static const char *const _tr_tune_{key}_{ident}[] = {{\n{items}\n}};\n")
    strings = ", ".join(c_string_literal(s, "") for s in
                        (source, region, where, digest, ",".join(sizes)))
    out.append(f"static tr_tune_site _tr_tune_{ident} = TR_TUNE_SITE({strings}, {len(cands)}, "
               f"{len(sizes)}, _tr_tune_labels_{ident}, _tr_tune_mappings_{ident}, "
               f"_tr_tune_variants_{ident});\n")
    values = ", ".join(f"(long long){safe_name(s)}" for s in sizes) or "0"
    args = ", ".join(names)
    cases = "".join(f"    case {k}: {candidate_symbol(signature.symbol, k)}({args}); break;\n"
                    for k in range(1, len(cands)))
    out.append(f"{print_of}\n{{\n"
               f"    const long long _tr_sizes[] = {{{values}}};\n"
               f"    switch (tr_tune_begin(&_tr_tune_{ident}, _tr_sizes)) {{\n{cases}"
               f"    default: {candidate_symbol(signature.symbol, 0)}({args}); break;\n"
               f"    }}\n    tr_tune_end(&_tr_tune_{ident});\n}}\n")
    return "\n".join(out)
