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


def main(path: str) -> None:
    regions, refs = parse(path)
    print("\n".join(table(regions, refs)))
    rows = end_to_end(path)
    if rows:
        print("\n".join(e2e_table(rows, regions)))


if __name__ == "__main__":
    main(sys.argv[1])
