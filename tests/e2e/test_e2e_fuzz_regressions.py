"""Programs the end-to-end random differential fuzzer (bench/e2e_fuzz.py) found wrong,
minimised: each is built as written and as translated, run on the CPU OpenCL device, and the
outputs must be identical (tests/e2e/fuzz_regressions/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

PROGRAMS = Path(__file__).parent / "fuzz_regressions"


@pytest.mark.parametrize("name", ["strided_ilp.c", "strided_ilp.f90"])
def test_strided_loop_split_with_ilp_translates_and_matches(tmp_path: Path, name: str) -> None:
    """Before: the translator died of SIGSEGV in isl (a gist of a guard whose context pins
    the outer iname); after: it translates and prints what the original prints."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == 24
