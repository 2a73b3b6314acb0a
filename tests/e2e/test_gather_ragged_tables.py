"""A Fortran gather through a neighbour list whose unread slots hold out-of-range values
(h87's md.f90 and hpcg.f90 on the merged tree: "region 'md_0' was generated assuming the
smallest element of nlist >= 1, but the smallest element of nlist = 0", exit 1, where the
original runs).  The scans cover whole leading axes, so a subscript through a table read
only up to a per-column count is not checked against them."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = Path(__file__).parent / "fortran_gathers" / "ragged.f90"


def test_a_neighbour_list_with_unread_slots_runs(tmp_path: Path) -> None:
    check_sample(PROGRAM, tmp_path, ("-Werror=directive-untranslated",
                                     "-Werror=sequential-region"))
