"""The end-to-end random differential fuzzer's fourth round (h91): its oracle, on programs
built by hand from the generator's parts (tests/e2e/random_programs.py), each translated,
built, run on the CPU OpenCL device and classified as the fuzzer does
(tests/e2e/e2e_fuzzing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.e2e_fuzzing import Batch
from tests.e2e.harness import check_sample
from tests.e2e.random_programs import Array, Assign, Case, Loop, Region, c, var

PROGRAMS = Path(__file__).parent / "fuzz_regressions"


def _last_writer_case() -> Case:
    """``#pragma omp parallel for`` over ``a0[i % 3] = i`` with a0 a pointer: a false claim
    (the last iteration writing each element wins) that the translator cannot take (the
    pointer's extent is unknown: the directive is left as written, with a warning)."""
    a0 = Array("a0", "i64", 1, "out", pointer=True)
    i = var("i")
    target = ("elem", a0, (("bin", "%", i, c(3), "i32"),), "i64")
    loop = Loop("i", c(0), c(8), 1, [Assign(target, ("cast", i, "i64"))], reverse=True)
    region = Region("p0_r0", [], "", [], loop, [], [], [])
    arrays = [a0, Array("ix", "i32", 1, "ix"), Array("uf", "f64", 1, "unit"),
              Array("ui", "i32", 1, "unit")]
    return Case(0, "c", 0, arrays, {}, [region], 6, 0, directives="openmp")


def test_a_claim_left_as_written_is_not_an_accepted_claim(tmp_path: Path) -> None:
    """Before: UNSOUND (the reversed original differs, though the translated program ran the
    loop as written), and a case whose every directive was left as written was a FAIL (no
    glue file to build).  After: MATCH."""
    case = _last_writer_case()
    [result] = Batch([], "c", tmp_path, cases=[case]).run()
    assert (result.cls, result.detail) == ("MATCH", ""), result.detail


@pytest.mark.parametrize("name", ["packed_index_local.f90"])
def test_component_subscripted_by_a_local_the_region_sets_is_packed(
        tmp_path: Path, name: str) -> None:
    """Before: a silent wrong result (fortran:20016): ``k = i + 2; a(k)%v(i) = ..`` passed
    ``a(k)%v`` with the host's k as one array (k was not a value that changes in the
    region), so every iteration wrote into one element's component.  After: a name the
    region assigns counts as changing there, the component is packed over every element of
    a, and the program prints what the original prints."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert "613.0" in out and "2035.0" in out, out
