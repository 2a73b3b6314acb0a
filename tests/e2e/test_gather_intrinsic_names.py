"""A Fortran gather's scans must not call an intrinsic the caller's scope has taken as a
variable name.  `INTEGER SIZE` beside `X(INDEX(I))` (h62's names77.f, MATCH before the
gathers) made the rewritten call ``tr_index_least_i32(index, min(size(index, kind=8), ...))``,
which gfortran rejects ("Syntax error in argument list"): exit 0, then a build failure.  An
explicit-shape table's count is now its declared extent."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = Path(__file__).parent / "fortran_gathers" / "intrinsic_names.f"


def test_a_gather_beside_variables_named_like_intrinsics(tmp_path: Path) -> None:
    check_sample(PROGRAM, tmp_path, ("-Werror=directive-untranslated",
                                     "-Werror=sequential-region"))
    rewritten = (tmp_path / "out" / "intrinsic_names.f").read_text()
    assert "tr_index_least_i32(index" in rewritten and "size(" not in rewritten.lower()
