"""End to end: a call's small results (at most 4 KiB each) are read without waiting into one
pinned buffer of the runtime, the call waits once, and they are copied out (h44, issue 29 item
2).  ``pinned_results/results.c`` returns three sums and a short array (one wait), writes 17
arrays of 4 KiB (the 64 KiB buffer runs out at the 17th, which is read the plain way) and one
large array, outside and inside a data region; the translated program must print what the
original prints, with staging forced, under the profile, and under AddressSanitizer.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import (REPO, SampleOptions, build_original, build_translated,
                               compare_outputs, run)
from tests.e2e.test_data_regions import SUPPRESSIONS

SOURCE = Path(__file__).parent / "pinned_results" / "results.c"


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Path, str]:
    work = tmp_path_factory.mktemp("pinned_results")
    original = build_original(SOURCE, work, SampleOptions())
    return build_translated(SOURCE, work, SampleOptions()), run([str(original)], work)


@pytest.mark.parametrize("env", [{}, {"TRANSLATE_STAGING": "1"}, {"TRANSLATE_PROFILE": "1"},
                                 {"TRANSLATE_EARLY_INIT": "0"}])
def test_results_as_the_original(builds: tuple[Path, str], env: dict) -> None:
    translated, expected = builds
    assert expected.count("\n") == 6, expected
    actual = run([str(translated)], translated.parent, env={"TRANSLATE_DEVICE": "cpu", **env})
    compare_outputs(expected, actual, 0.0)


def test_results_clean_under_address_sanitizer(builds: tuple[Path, str]) -> None:
    translated, expected = builds
    work = translated.parent
    out, rt = work / "out", REPO / "translator" / "runtime"
    exe = work / "san_address"
    subprocess.run(["gcc", "-std=c99", "-g", "-fsanitize=address", f"-I{rt}",
                    str(out / "results.c"), str(out / "results.host.c"),
                    str(rt / "translate_rt.c"), "-lOpenCL", "-lm", "-o", str(exe)],
                   check=True, cwd=work, capture_output=True, text=True)
    (work / "lsan.supp").write_text(SUPPRESSIONS)
    env = {**os.environ, "TRANSLATE_DEVICE": "cpu", "ASAN_OPTIONS": "detect_leaks=1",
           "LSAN_OPTIONS": f"suppressions={work / 'lsan.supp'}:print_suppressions=0"}
    proc = subprocess.run([str(exe)], capture_output=True, text=True, env=env, cwd=work,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Sanitizer" not in proc.stderr, proc.stderr
    compare_outputs(expected, proc.stdout, 0.0)
