"""End to end: pinned staging holds the last chunk of a copy to the device back until the next
command is enqueued (so that the kernel after a staged copy is queued before the copy ends;
bench/RESULTS.md, "Staging and kernel time").  ``runtime_reuse/held.c`` puts every kind of
command right after a staged copy: a newer update of the same array, a copy back, a release of
the buffer, a second staged copy, a region without a launch.  Under forced staging with tiny
chunks (one lane and several) it must print what the original prints, also under
AddressSanitizer without leaks, and the profile must count every byte once.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import (REPO, SampleOptions, build_original, build_translated,
                               compare_outputs, run)
from tests.e2e.test_data_regions import SUPPRESSIONS

SRC = Path(__file__).parent / "runtime_reuse" / "held.c"
STAGED = {"TRANSLATE_STAGING": "1", "TRANSLATE_STAGING_CHUNK": "4096"}
MODES = {
    "default": {},
    "staged": STAGED,
    "staged-one-lane": {**STAGED, "TRANSLATE_STAGING_THREADS": "1"},
    "staged-three-lanes": {**STAGED, "TRANSLATE_STAGING_THREADS": "3"},
    "staged-sync": {**STAGED, "TRANSLATE_SYNC": "1"},
    "staged-profile": {**STAGED, "TRANSLATE_PROFILE": "1"},
}


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Path, str]:
    work = tmp_path_factory.mktemp("held")
    opts = SampleOptions()
    original = build_original(SRC, work, opts)
    translated = build_translated(SRC, work, opts)
    return translated, run([str(original)], work)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_held_chunk_keeps_order(builds: tuple[Path, str], mode: str) -> None:
    translated, expected = builds
    assert expected.count("\n") == 6, expected
    actual = run([str(translated)], translated.parent,
                 env={"TRANSLATE_DEVICE": "cpu", **MODES[mode]})
    compare_outputs(expected, actual, 0.0)


def test_held_chunk_bytes_counted_once(builds: tuple[Path, str]) -> None:
    """Bytes to the device: the data directives' copy-ins and updates (x three times, z once),
    addto's two inputs in each of its two calls, part's x and y (10 elements each in the call
    without a launch, whole in the other); a held chunk is not counted twice."""
    translated, _ = builds
    proc = subprocess.run([str(translated)], capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1",
                               **STAGED})
    assert proc.returncode == 0, proc.stderr
    total = next(line for line in proc.stderr.splitlines() if line.startswith("total "))
    to_dev = int(total.split()[4])
    n = 5003 * 8
    assert to_dev == 4 * n + 4 * n + (2 * 10 * 8 + 2 * n), proc.stderr


def test_held_chunk_clean_under_address_sanitizer(builds: tuple[Path, str]) -> None:
    translated, expected = builds
    work = translated.parent
    rt = REPO / "translator" / "runtime"
    out = work / "out"
    asan = work / "asan"
    subprocess.run(["gcc", "-std=c99", "-g", "-fsanitize=address", f"-I{rt}",
                    str(out / "held.c"), str(out / "held.host.c"), str(rt / "translate_rt.c"),
                    "-lOpenCL", "-o", str(asan)], check=True, cwd=work, capture_output=True,
                   text=True)
    (work / "lsan.supp").write_text(SUPPRESSIONS)
    for mode in ("staged", "staged-three-lanes"):
        env = {**os.environ, "TRANSLATE_DEVICE": "cpu", **MODES[mode],
               "ASAN_OPTIONS": "detect_leaks=1",
               "LSAN_OPTIONS": f"suppressions={work / 'lsan.supp'}:print_suppressions=0"}
        proc = subprocess.run([str(asan)], capture_output=True, text=True, env=env)
        assert proc.returncode == 0, proc.stderr
        assert "Sanitizer" not in proc.stderr, proc.stderr
        compare_outputs(expected, proc.stdout, 0.0)
