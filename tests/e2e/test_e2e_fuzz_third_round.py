"""Programs the end-to-end random differential fuzzer's third round (h84) found refused for a
wrong reason or computed wrongly, minimised: each is built as written and as translated, run
on the CPU OpenCL device, and the outputs must be identical (tests/e2e/fuzz_regressions/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

PROGRAMS = Path(__file__).parent / "fuzz_regressions"


@pytest.mark.parametrize("name", ["empty_inner_loop.c", "empty_inner_loop.f90"])
def test_loops_that_never_run_translate_and_match(tmp_path: Path, name: str) -> None:
    """Before: exit 1, "loop over 'j' has no lower bound" at the kernel line (an inner loop
    empty for every outer value, C's ``for (j = 0; j < 0; j++)``, a split loop that never
    runs), and Fortran's ``do j = 1, 0`` refused as a loop that never runs.  After: the
    statements of such loops are left out (they never run); the program translates and
    prints what the original prints."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == 40
