"""End to end: every GPU benchmark program (bench/gpu/*.c) at small sizes, original vs
translated, on the CPU OpenCL device.

The programs take their sizes from argv (defaults are the large GPU sizes), so the test passes
small ones.  A tolerance is declared only where the translated program may round differently:
a floating-point reduction mapped in parallel (STREAM's dot) or multiply-adds contracted to FMA
on request (gemm.c's ``set_options("fp_contract")``).  Everything else must print the same text.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.harness import (REPO, SampleOptions, build_original, build_translated,
                               compare_outputs, run)

BENCH = REPO / "bench" / "gpu"


@dataclass(frozen=True)
class Case:
    """Small arguments for one program, its tolerance and why, and output to blank out
    (timings) before comparing."""

    args: tuple[str, ...]
    rtol: float = 0.0
    masks: tuple[str, ...] = ()
    cppflags: tuple[str, ...] = ()


CASES = {
    # dot_k: a parallel floating-point sum (split onto groups): summation order differs
    "stream": Case(("10", "2"), rtol=1e-12),
    # n2d 37 and 41 are not multiples of the tiles (edge groups); exact
    "stencil": Case(("37", "41", "13", "2")),
    # fp_contract: FMA rounds once where the original rounds twice; n=200 has edge tiles
    "gemm": Case(("200", "1"), rtol=1e-6),
    # every region exact: sums run in source order inside one work item
    "polybench": Case(("37", "45", "35", "3", "11", "2", "2")),
    # the wall time per call differs from run to run; the checked value must not
    # clock_gettime needs POSIX under -std=c99, as the harness compiles
    "overhead": Case(("200",), masks=(r"per_call_us \S+",),
                     cppflags=("-D_POSIX_C_SOURCE=199309L",)),
    # update latencies differ from run to run; the round trip's check must not
    "halo_update": Case(("20",), masks=(r"\d+\.\d+ us",),
                        cppflags=("-D_POSIX_C_SOURCE=199309L",)),
    # five floating-point sums without consent: one work item, source order, exact
    "field_summary": Case(("30", "20", "2"), masks=(r"ms per call \S+",)),
}


def _mask(text: str, masks: tuple[str, ...]) -> str:
    for pattern in masks:
        text = re.sub(pattern, "<masked>", text)
    return text


def test_every_bench_program_has_a_case() -> None:
    programs = {p.stem for p in BENCH.glob("*.c")}
    assert programs == set(CASES), f"programs without a case: {sorted(programs - set(CASES))}"


@pytest.mark.parametrize("stem", sorted(CASES))
def test_bench_program_matches_original(stem: str, tmp_path: Path) -> None:
    case, src = CASES[stem], BENCH / f"{stem}.c"
    opts = SampleOptions(cppflags=case.cppflags)
    original = build_original(src, tmp_path, opts)
    translated = build_translated(src, tmp_path, opts)
    expected = _mask(run([str(original), *case.args], tmp_path), case.masks)
    actual = _mask(run([str(translated), *case.args], tmp_path,
                       env={"TRANSLATE_DEVICE": "cpu"}), case.masks)
    assert len(expected.split()) >= 3, f"{stem} printed too little to compare: {expected!r}"
    compare_outputs(expected, actual, case.rtol)


def test_polybench_region_selection(tmp_path: Path) -> None:
    """The `only` argument runs just the named regions (the GPU run uses it to skip regions
    that would run as one work item); their checksums match the full run's."""
    src = BENCH / "polybench.c"
    original = build_original(src, tmp_path, SampleOptions())
    args = ["30", "40", "20", "2", "9", "2", "1"]
    full = run([str(original), *args], tmp_path).splitlines()
    some = run([str(original), *args, "bicg,heat3d"], tmp_path).splitlines()
    assert some == [line for line in full if line.split()[0] in ("bicg", "heat3d")]
    assert len(some) == 2


@pytest.mark.parametrize("stem", ["stream", "stencil"])
def test_copies_mode_matches_original(stem: str, tmp_path: Path) -> None:
    """stream and stencil time their calls inside a data region by default (arrays resident,
    as the GPU references keep them); the `copies` argument makes them plain calls that copy
    in and out and print each region's wall time per call.  Both modes compute what the
    original computes; in the resident mode no array moves in a region call."""
    case, src = CASES[stem], BENCH / f"{stem}.c"
    opts = SampleOptions(cppflags=case.cppflags)
    original = build_original(src, tmp_path, opts)
    translated = build_translated(src, tmp_path, opts)
    masks = (*case.masks, r"e2e_call (\S+) \S+ ms")
    args = [*case.args, "copies"]
    expected = _mask(run([str(original), *args], tmp_path), masks)
    actual = _mask(run([str(translated), *args], tmp_path, env={"TRANSLATE_DEVICE": "cpu"}),
                   masks)
    assert expected.count("<masked>") == 5, expected
    compare_outputs(expected, actual, case.rtol)
    proc = subprocess.run([str(translated), *case.args], capture_output=True, text=True,
                          cwd=tmp_path, env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                                             "TRANSLATE_PROFILE": "1"})
    assert proc.returncode == 0, proc.stderr
    rows = [line.split() for line in proc.stderr.splitlines()[2:]]
    regions = [r for r in rows if r and r[0] not in ("data", "end", "total")]
    # only dot_k's scalar result (one double per call) moves; no array does
    assert len(regions) == 5, proc.stderr
    assert all(int(r[4]) <= 8 * int(r[2]) and int(r[5]) <= 8 * int(r[2]) for r in regions), \
        proc.stderr
    assert any(r[0] == "data" and int(r[4]) > 0 for r in rows), proc.stderr
