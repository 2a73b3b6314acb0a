"""A plain call right after an async call on the same array, with no `wait` between, reads
what the async call copied back (docs/pragmas.md, "Async queues": work without async runs
after everything started before it).  The runtime's copies that snapshot host memory at once
-- the packed small arrays of a plain call, staged writes -- read the array before the async
copy back had arrived: exit 0 and other numbers (h50's differential hunt).  While async work
is not waited for, copies in now go from the host memory itself, ordered on the device.
C in three copy modes; Fortran (a module array, assumed-shape dummies) in the default one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import (SampleOptions, build_original, build_translated, check_sample,
                               compare_outputs, run)

SRC = Path(__file__).parent / "async_snapshots" / "after_async.c"
MODES = {
    "packed": {},
    "staged": {"TRANSLATE_SMALL_ARRAYS": "off", "TRANSLATE_STAGING": "1",
               "TRANSLATE_STAGING_CHUNK": "4096"},
    "packed-and-staged": {"TRANSLATE_STAGING": "1", "TRANSLATE_STAGING_CHUNK": "4096"},
}


@pytest.fixture(scope="module")
def builds(tmp_path_factory) -> tuple[Path, str]:
    work = tmp_path_factory.mktemp("after_async")
    original = build_original(SRC, work, SampleOptions())
    return build_translated(SRC, work, SampleOptions()), run([str(original)], work)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_plain_call_after_async_call_sees_its_results(builds: tuple[Path, str],
                                                      mode: str) -> None:
    translated, expected = builds
    assert expected.count("\n") == 18, expected
    actual = run([str(translated)], translated.parent,
                 env={"TRANSLATE_DEVICE": "cpu", **MODES[mode]})
    compare_outputs(expected, actual, 0.0)


def test_fortran_module_array_after_async_region(tmp_path: Path) -> None:
    out = check_sample(SRC.with_suffix(".f90"), tmp_path)
    assert out.count("\n") == 7, out
