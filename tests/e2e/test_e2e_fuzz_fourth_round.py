"""The end-to-end random differential fuzzer's fourth round (h91): its oracle, on programs
built by hand from the generator's parts (tests/e2e/random_programs.py), each translated,
built, run on the CPU OpenCL device and classified as the fuzzer does
(tests/e2e/e2e_fuzzing.py)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.e2e_fuzzing import Batch
from tests.e2e.random_programs import Array, Assign, Case, Loop, Region, c, var


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
