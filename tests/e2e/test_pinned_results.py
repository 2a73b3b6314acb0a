"""End to end: a call's small results (at most 4 KiB each) are read without waiting into one
pinned buffer of the runtime, the call waits once, and they are copied out (h44, issue 29 item
2).  ``pinned_results/results.c`` returns three sums and a short array (one wait), writes 17
arrays of 4 KiB (the 64 KiB buffer runs out at the 17th, which is read the plain way) and one
large array, outside and inside a data region; the translated program must print what the
original prints, with staging forced, under the profile, and under AddressSanitizer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import (SampleOptions, build_original, build_translated,
                               compare_outputs, run, run_c_sanitized)

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
    compare_outputs(expected, run_c_sanitized(translated.parent, "results", "address"), 0.0)
