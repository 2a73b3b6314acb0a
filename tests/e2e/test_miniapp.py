"""The mini-app of issues 21 and 29 (``samples/miniapp/miniapp.F90``), on PoCL.

A Fortran ``.F90`` application ported by adding pragmas only: translated (with ``--report``),
built and run at a small size against the original (gfortran), and against its OpenMP build
(``-fopenmp``, the same source).  Every output line is bit-identical except the field
summary's five sums, the one region that consents to reassociation (compared within 1e-12).
The report shows every region parallel in one launch per call, and the profile shows that the
``enter data`` after allocation keeps every array on the device: regions move only scalars.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import (REPO, SampleOptions, build_original, build_translated,
                               compare_outputs, run)

APP = REPO / "samples" / "miniapp" / "miniapp.F90"
ARGS = ["48", "4"]
#: Every loop nest of the app that OpenMP runs in parallel is one of these regions.
REGIONS = ("init_state_k", "init_tracer_k", "halo_columns_k", "halo_rows_k", "ideal_gas_k",
           "calc_dt_k", "dt_location_k", "advect_k", "copy_back_k", "spmv_k",
           "update_tracer_k", "field_summary_k")


def compare(expected: str, actual: str) -> None:
    """Summary lines within 1e-12 (reassociated sums); every other line identical."""
    want, got = expected.splitlines(), actual.splitlines()
    assert len(want) == len(got), (expected, actual)
    for a, b in zip(want, got):
        compare_outputs(a, b, 1e-12 if a.startswith("summary") else 0.0)


def blocks(report: str) -> dict[str, str]:
    return {m.group(1): m.group(0)
            for m in re.finditer(r"^region (\w+) at .*?(?=^region |\Z)", report, re.M | re.S)}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path, Path]:
    work = tmp_path_factory.mktemp("miniapp")
    opts = SampleOptions(translate_flags=("--report=" + str(work / "report.txt"),
                                          "-Werror"))
    return build_original(APP, work, opts), build_translated(APP, work, opts), work


def test_translated_app_matches_the_original(built) -> None:
    original, translated, work = built
    expected = run([str(original), *ARGS], work)
    assert expected.count("\nsummary") == 4 and "final" in expected
    actual = run([str(translated), *ARGS], work, env={"TRANSLATE_DEVICE": "cpu"})
    compare(expected, actual)


def test_every_region_is_parallel_in_one_launch(built) -> None:
    report = (built[2] / "report.txt").read_text()
    found = blocks(report)
    assert sorted(found) == sorted(REGIONS)
    for block in found.values():
        assert "mapping (automatic" in block and "sequential" not in block, block
        assert "one work item" not in block and "host loop" not in block, block
        assert "  launches per call: 1\n" in block, block
        assert re.search(r"^    \w+  [gl]\.0  legal$", block, re.M), block
    assert "reassociate=True" in found["field_summary_k"]
    # both loops of the three 2-D reductions on the hardware, each in one pass
    assert "chosen by: 2-D group reduction (5 values, one pass)" in found["field_summary_k"]
    for region in ("calc_dt_k", "dt_location_k"):
        assert "chosen by: 2-D group reduction (1 value, one pass)" in found[region]


def test_data_stays_on_the_device(built) -> None:
    """TRANSLATE_PROFILE=1: each region is called at the size's rate and moves only its
    scalars (a few bytes), never an array."""
    _, translated, work = built
    done = subprocess.run([str(translated), *ARGS], cwd=work, capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                               "TRANSLATE_PROFILE": "1"}, timeout=300)
    assert done.returncode == 0, done.stderr
    row = re.compile(r"^(\w+_k)\s+\S*miniapp\.F90:\d+\s+(\d+)\s+[\d.]+\s+(\d+)\s+(\d+)",
                     re.M)
    rows = {m.group(1): (int(m.group(2)), int(m.group(3)), int(m.group(4)))
            for m in row.finditer(done.stderr)}
    assert sorted(rows) == sorted(REGIONS), done.stderr
    assert rows["init_state_k"][0] == 1 and rows["advect_k"][0] == 4
    assert rows["halo_rows_k"][0] == 5
    for name, (calls, to_device, from_device) in rows.items():   # bytes of all calls
        assert max(to_device, from_device) <= 40 * calls, (name, done.stderr)


def test_openmp_build_of_the_same_source(built) -> None:
    original, _, work = built
    exe = work / "openmp"
    run(["gfortran", "-O1", "-fopenmp", str(APP), "-o", str(exe)], work)
    expected = run([str(original), *ARGS], work)
    compare(expected, run([str(exe), *ARGS], work, env={"OMP_NUM_THREADS": "2"}))


def test_single_precision_configuration(tmp_path: Path) -> None:
    """-DUSE_SINGLE picks the kind: the translated single-precision app matches too."""
    opts = SampleOptions(cppflags=("-DUSE_SINGLE",), translate_flags=("-DUSE_SINGLE",))
    original = build_original(APP, tmp_path, opts)
    translated = build_translated(APP, tmp_path, opts)
    expected = run([str(original), "32", "2"], tmp_path)
    actual = run([str(translated), "32", "2"], tmp_path, env={"TRANSLATE_DEVICE": "cpu"})
    want, got = expected.splitlines(), actual.splitlines()
    assert len(want) == len(got)
    for a, b in zip(want, got):
        compare_outputs(a, b, 1e-4 if a.startswith("summary") else 0.0)
