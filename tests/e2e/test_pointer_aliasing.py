"""End to end: memory that C lets two names reach (issue 20, item 9).

``aliasing/derived.c``: pointers derived inside the translated function (into a local array,
from a restrict parameter, chained through an array parameter with an offset parameter, into
an array present in a data region) are their base array at an offset, so dependence analysis
sees the overlap; a local array reached through such a pointer after the region is not
privatised.  Before: each pointer was a separate restrict buffer and 30 of 32 results were
wrong (or the data-region case stopped on a misaligned sub-buffer).

``aliasing/overlap.c``: arrays passed to one call that overlap in memory, one of them written,
stop the translated program with a message naming the region and both arguments, unless the
kernel allows for the overlap (plain pointers) and both lie in one present data entry or start
at the same address (one device buffer).  Before:
the kernel got two device copies of one memory and gave ``y[2] = 5`` instead of 7.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import (SampleOptions, build_original, build_translated, check_sample,
                               compare_outputs, run)

HERE = Path(__file__).parent / "aliasing"


def test_derived_pointers_match_the_original(tmp_path: Path) -> None:
    check_sample(HERE / "derived.c", tmp_path)


@pytest.fixture(scope="module")
def overlap(tmp_path_factory) -> tuple[Path, Path]:
    work = tmp_path_factory.mktemp("overlap")
    src = HERE / "overlap.c"
    return (build_original(src, work, SampleOptions()),
            build_translated(src, work, SampleOptions()))


def test_calls_without_two_copies_run(overlap: tuple[Path, Path]) -> None:
    original, translated = overlap
    expected = run([str(original), "ok"], original.parent)
    assert expected.count("\n") == 6, expected
    actual = run([str(translated), "ok"], translated.parent, env={"TRANSLATE_DEVICE": "cpu"})
    compare_outputs(expected, actual, 0.0)


SHARE = ("pass arrays that do not overlap, or make the array present in a data region around "
         "the call (one device buffer for both)")
DISJOINT = ("the kernel was generated for arrays that do not overlap: pass arrays that do not "
            "overlap")


@pytest.mark.parametrize("case, line, first, second, region, hint", [
    ("plain", 15, "x", "y", "plain_k", SHARE),
    ("array", 23, "x", "y", "array_params_k", DISJOINT),
    ("unknown", 44, "u", "p", "unknown_origin_k", SHARE),
])
def test_overlapping_written_arrays_stop(overlap: tuple[Path, Path], case: str, line: int,
                                         first: str, second: str, region: str,
                                         hint: str) -> None:
    _, translated = overlap
    proc = subprocess.run([str(translated), case], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"})
    assert proc.returncode == 1, proc.stderr
    head = (f"overlap.c:{line}: error: translate runtime: region '{region}': array arguments "
            f"'{first}' (host bytes ")
    assert head in proc.stderr
    assert (f") overlap in memory and the region writes '{second}': the device would work "
            f"on two copies of that memory; {hint}\n") in proc.stderr
