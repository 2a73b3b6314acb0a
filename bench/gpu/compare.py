"""Reads bench/gpu/run.sh's raw lines and prints kernel time per call of each translated region
next to its reference, with the ratio reference/translated (1.00 = as fast as the reference).

Raw lines: ``ref NAME MS`` from references.py, and ``profile PROGRAM <row>`` for each line the
translated program printed under TRANSLATE_PROFILE=1.  Two profile layouts are read:

- one row per region (``region location calls kernel-ms bytes-in bytes-out``), then a ``total``
  row;
- the same, plus, under a region that runs several kernels, one indented row per kernel
  (``name - launches kernel-ms - -``) and a ``total`` row with numbers.

A region's row carries the total kernel time of all its calls (every kernel, every step of a
time loop inside it), so a region is compared per call with its reference's whole call.  Kernel
rows are shown under their region; ``total``, header and unknown rows are ignored.

Programs run twice by run.sh (stream, stencil) give rows of PROGRAM (calls inside a data region,
arrays resident on the device, as the references keep them) and of PROGRAM_copies (plain calls
that copy their arrays in and out).  Their ``e2e_call PROGRAM REGION MS ms`` lines (wall time
per plain call, transfers included) are printed in a second table."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

#: translated region -> reference kernel it is measured against
PAIRS = {"copy": "copy", "mul": "mul", "add": "add", "triad": "triad", "dot_k": "dot",
         "s2d": "s2d", "s2d_pf16": "s2d", "s2d_pf32": "s2d", "slin": "slin", "s3d": "s3d",
         "sgemm": "sgemm", "dgemm": "dgemm",
         "gemm_pb": "gemm_pb", "twomm": "twomm", "atax": "atax", "bicg": "bicg", "mvt": "mvt",
         "threemm": "threemm", "syrk": "syrk", "syr2k": "syr2k", "gemver": "gemver",
         "gesummv": "gesummv",
         "jacobi2d": "jacobi2d", "fdtd2d": "fdtd2d", "heat3d": "heat3d"}
#: profile rows that are not regions: the header, the totals, data directives ("data",
#: "end data", "enter data", "exit data", "update")
NOT_REGIONS = {"region", "total", "data", "end", "enter", "exit", "update"}


@dataclass
class Region:
    """One region row of one program: ms of kernel time per call, and its kernels' rows."""

    program: str
    name: str
    calls: int
    ms_per_call: float
    kernels: list[tuple[str, int, float]] = field(default_factory=list)


def _number(word: str) -> float | None:
    try:
        return float(word)
    except ValueError:
        return None


def _region_row(program: str, words: list[str]) -> Region | None:
    """A region row: name, location, calls, kernel ms, ...; None for anything else."""
    if len(words) < 4 or words[0] in NOT_REGIONS or not words[2].isdigit():
        return None
    calls, ms = int(words[2]), _number(words[3])
    if calls == 0 or ms is None:
        return None
    return Region(program, words[0], calls, ms / calls)


def parse(path: str) -> tuple[list[Region], dict[str, float]]:
    regions: list[Region] = []
    refs: dict[str, float] = {}
    for line in open(path):
        words = line.split()
        if words[:1] == ["e2e_call"]:
            continue
        if words[:1] == ["ref"] and len(words) == 3 and _number(words[2]) is not None:
            refs[words[1]] = float(words[2])
            continue
        if words[:1] != ["profile"] or len(words) < 3:
            continue
        program, row = words[1], line.rstrip("\n").split(" ", 2)[2]
        if row[:1].isspace():       # a kernel of the region above (several kernels per region)
            kw = row.split()
            if regions and regions[-1].program == program and len(kw) >= 4 \
                    and kw[2].isdigit() and _number(kw[3]) is not None:
                regions[-1].kernels.append((kw[0], int(kw[2]), float(kw[3])))
            continue
        region = _region_row(program, row.split())
        if region is not None:
            regions.append(region)
    return regions, refs


def table(regions: list[Region], refs: dict[str, float]) -> list[str]:
    lines = [f"{'program':<14} {'kernel':<10} {'translated ms':>14} {'reference ms':>14} "
             f"{'ratio':>7}"]
    for r in regions:
        ref = refs.get(PAIRS.get(r.name, ""))
        ref_text = f"{ref:14.4f} {ref / r.ms_per_call:7.2f}" if ref else f"{'':>14} {'':>7}"
        lines.append(f"{r.program:<14} {r.name:<10} {r.ms_per_call:14.4f} {ref_text}")
        for name, launches, ms in r.kernels:   # launches and ms over all the region's calls
            lines.append(f"{'':<14}   {name:<16} {ms / r.calls:10.4f} ms per region call, "
                         f"{launches / r.calls:g} launches per call")
    return lines


def end_to_end(path: str) -> list[tuple[str, str, float]]:
    """The ``e2e_call PROGRAM REGION MS ms`` lines: (program, region, ms per call)."""
    rows = []
    for line in open(path):
        words = line.split()
        if words[:1] == ["e2e_call"] and len(words) >= 4 and _number(words[3]) is not None:
            rows.append((words[1], words[2], float(words[3])))
    return rows


def e2e_table(rows: list[tuple[str, str, float]], regions: list[Region]) -> list[str]:
    """Wall time per plain call next to the kernel time of the same call (PROGRAM_copies)."""
    kernel = {(r.program, r.name): r.ms_per_call for r in regions}
    lines = ["", "end to end per plain call (arrays copied in and out; wall time):",
             f"{'program':<14} {'region':<10} {'e2e ms':>10} {'kernel ms':>10}"]
    for program, name, ms in rows:
        k = kernel.get((program + "_copies", name))
        lines.append(f"{program:<14} {name:<10} {ms:10.3f} "
                     + (f"{k:10.4f}" if k is not None else f"{'':>10}"))
    return lines


# ---------------------------------------------------------------------------------------------
# issue 23's acceptance: every figure next to its reference and its goal

#: gemm-like regions: floating-point operations per call as a multiple of n^3 (n: the size)
DENSE_FLOPS = {"gemm_pb": 2, "twomm": 4, "threemm": 6, "syrk": 1, "syr2k": 2}
MATVEC = ("atax", "bicg", "mvt", "gemver", "gesummv")
#: FP64 peak without tensor cores (TFLOP/s, SXM boards), by a substring of the device name;
#: FP64_PEAK_TFLOPS overrides it
FP64_PEAK = {"H100": 34.0, "H200": 34.0}
#: labels of heat_data's timing lines (run.sh): 100 steps, profiled, data region alone, OpenMP
HEAT_LABELS = ("translated", "profiled", "dataonly", "openmp16")


@dataclass
class Raw:
    """The lines of run.sh's raw output that the summary reads."""

    machine: str = ""
    args: dict[str, list[str]] = field(default_factory=dict)
    heat: dict[str, list[float]] = field(default_factory=dict)   # label -> ms per run
    overhead: dict[str, float] = field(default_factory=dict)     # plain / data -> us per call
    heat_kernel_ms: float = 0.0
    heat_kernel_calls: int = 0
    heat_steps: int = 0
    data_bytes: int = 0
    data_copy_ms: float = 0.0


def read_raw(path: str) -> Raw:
    raw = Raw()
    for line in open(path):
        words = line.split()
        if words[:1] == ["machine"]:
            raw.machine = line.split(" ", 1)[1].strip()
        elif words[:1] == ["args"] and len(words) >= 2:
            raw.args[words[1]] = words[2:]
        elif len(words) > 6 and words[0].rstrip(":") in HEAT_LABELS and words[6] == "ms":
            raw.heat.setdefault(words[0].rstrip(":"), []).append(float(words[5]))
            if words[0] == "translated:":
                raw.heat_steps = int(words[1])
        elif words[:1] in (["overhead"], ["overhead_data"]) and "per_call_us" in words:
            key = "plain" if words[0] == "overhead" else "data"
            raw.overhead[key] = float(words[words.index("per_call_us") + 1])
        elif words[:2] == ["profile", "heat_data"] and len(words) >= 8:
            _heat_profile_row(raw, words[2:])
    return raw


def _heat_profile_row(raw: Raw, row: list[str]) -> None:
    """A profile row of heat_data: the step region's kernel time, the data rows' bytes."""
    if row[0] == "heat_step" and _number(row[3]) is not None:
        raw.heat_kernel_ms += float(row[3])
        raw.heat_kernel_calls += int(row[2])
    elif row[0] == "data" or row[:2] == ["end", "data"]:
        cols = row[2:] if row[0] == "data" else row[3:]
        if len(cols) >= 4 and all(_number(c) is not None for c in cols[1:4]):
            raw.data_copy_ms += float(cols[1])
            raw.data_bytes += int(cols[2]) + int(cols[3])


def _median(values: list[float]) -> float | None:
    return sorted(values)[len(values) // 2] if values else None


def _peak_tflops(machine: str) -> float | None:
    import os
    if os.environ.get("FP64_PEAK_TFLOPS"):
        return float(os.environ["FP64_PEAK_TFLOPS"])
    return next((v for k, v in FP64_PEAK.items() if k in machine), None)


def _row(figure: str, ours: str, ref: str, value: float | None, unit: str, goal: float | None,
         higher: bool = True) -> str:
    shown = "-" if value is None else f"{value:.2f}{unit}"
    if value is None or goal is None:
        met = "-"
    else:
        met = "yes" if (value >= goal if higher else value <= goal) else "no"
    goal_text = "-" if goal is None else f"{'>=' if higher else '<='} {goal:g}{unit}"
    return f"{figure:<34} {ours:>14} {ref:>24} {shown:>10} {goal_text:>11} {met:>4}"


def summary(path: str, regions: list[Region], refs: dict[str, float]) -> list[str]:
    """Issue 23's figures, each next to its reference and its goal, from one run."""
    raw = read_raw(path)
    # kernel time of the resident runs (PROGRAM_copies rows repeat the names)
    per_call = {r.name: r.ms_per_call for r in regions if not r.program.endswith("_copies")}
    lines = ["", f"issue 23 acceptance (one run; {raw.machine or 'device not named'})",
             f"{'figure':<34} {'translated':>14} {'reference':>24} {'value':>10} "
             f"{'goal':>11} {'met':>4}"]
    lines += _heat_rows(raw, refs)
    lines += _dense_rows(raw, per_call, refs)
    for name in MATVEC:
        lines.append(_ratio_row(f"{name} (automatic) / cuBLAS gemv", name, per_call, refs, 0.8))
    lines.append(_ratio_row("sgemm recipe / cuBLAS", "sgemm", per_call, refs, 0.85))
    lines.append(_ratio_row("dgemm recipe / cuBLAS (FP64 TC)", "dgemm", per_call, refs, None))
    lines += _peak_rows(raw, "gemm", {"dgemm": 2}, per_call)
    lines.append(_ratio_row("dot (split) / CUDA dot", "dot_k", per_call, refs, None))
    for key, what in (("plain", "host cost per plain call"),
                      ("data", "host cost per call, data region")):
        us = raw.overhead.get(key)
        lines.append(_row(what, "-" if us is None else f"{us:.1f} us", "", us, " us", 10.0,
                          higher=False))
    return lines


def _ratio_row(figure: str, name: str, per_call: dict[str, float], refs: dict[str, float],
               goal: float | None) -> str:
    ours, ref = per_call.get(name), refs.get(PAIRS.get(name, name))
    value = ref / ours if ours and ref else None
    return _row(figure, "-" if ours is None else f"{ours:.3f} ms",
                "-" if ref is None else f"{ref:.3f} ms", value, "", goal)


def _heat_rows(raw: Raw, refs: dict[str, float]) -> list[str]:
    """Heat against OpenMP-16, and the data region's copies: the e2e median (runs without the
    profile) minus the kernel time of the timed steps (the profile's heat_step calls include the
    warm-up call); below it the data region timed alone (0 steps) and, as earlier runs computed
    it, the profiled run minus kernels (the profile waits for every kernel: ~40 us a launch)."""
    ours, omp = _median(raw.heat.get("translated", [])), _median(raw.heat.get("openmp16", []))
    rows = [_row("heat 4096^2 x 100, e2e / OpenMP-16", "-" if ours is None else f"{ours:.1f} ms",
                 "-" if omp is None else f"{omp:.1f} ms (OpenMP-16)",
                 omp / ours if ours and omp else None, "x", 10.0)]
    calls = raw.heat_kernel_calls
    kernels = raw.heat_kernel_ms * min(raw.heat_steps, calls) / calls if calls else 0.0
    ref_ms = refs.get("xfer_in", 0.0) + refs.get("xfer_out", 0.0)
    text, gbps = _moving(raw, ours, kernels)
    rows.append(_row("heat data region in+out, GB/s", text,
                     "-" if not ref_ms else f"{ref_ms:.1f} ms (CUDA pinned)", gbps, "", 45.0))
    alone = _median(raw.heat.get("dataonly", []))
    if alone is not None:
        text, gbps = _moving(raw, alone, 0.0)
        rows.append(_row("  data region alone (0 steps)", text, "", gbps, "", None))
    profiled = _median(raw.heat.get("profiled", []))
    if profiled is not None:
        text, gbps = _moving(raw, profiled, kernels)
        rows.append(_row("  profiled run minus kernels", text, "", gbps, "", None))
    if ref_ms and raw.data_bytes:
        rows.append(_row("  CUDA pinned copies, GB/s", "", "", raw.data_bytes / ref_ms / 1e6, "",
                         None))
    if raw.data_copy_ms and raw.data_bytes:
        rows.append(_row("  profile's copy time, GB/s", f"{raw.data_copy_ms:.1f} ms", "",
                         raw.data_bytes / raw.data_copy_ms / 1e6, "", None))
    return rows


def _moving(raw: Raw, ms: float | None, kernels: float) -> tuple[str, float | None]:
    """`ms - kernels` as text, and the data region's bytes in that time as GB/s."""
    moving = ms - kernels if ms is not None else None
    gbps = raw.data_bytes / moving / 1e6 if moving and moving > 0 and raw.data_bytes else None
    return ("-" if moving is None else f"{moving:.1f} ms"), gbps


def _dense_rows(raw: Raw, per_call: dict[str, float], refs: dict[str, float]) -> list[str]:
    rows = []
    for name in DENSE_FLOPS:
        rows.append(_ratio_row(f"{name} (automatic) / cuBLAS", name, per_call, refs, 0.5))
        rows += _peak_rows(raw, "polybench", {name: DENSE_FLOPS[name]}, per_call)
    return rows


def _peak_rows(raw: Raw, program: str, flops: dict[str, int], per_call: dict[str, float]
               ) -> list[str]:
    """The fraction of the FP64 CUDA-core peak the regions `flops` (n^3 multiples, n: the
    program's first argument) reach; cuBLAS DGEMM uses FP64 tensor cores, OpenCL cannot."""
    n = int(raw.args[program][0]) if raw.args.get(program) else None
    peak = _peak_tflops(raw.machine)
    rows = []
    for name, count in flops.items():
        ours = per_call.get(name)
        if ours and n and peak:
            tflops = count * n ** 3 / ours / 1e9
            rows.append(_row(f"  of FP64 CUDA-core peak {peak:g} TF", f"{tflops:.1f} TF", "",
                             tflops / peak, "", None))
    return rows


def main(path: str) -> None:
    regions, refs = parse(path)
    print("\n".join(table(regions, refs)))
    rows = end_to_end(path)
    if rows:
        print("\n".join(e2e_table(rows, regions)))
    print("\n".join(summary(path, regions, refs)))


if __name__ == "__main__":
    main(sys.argv[1])
