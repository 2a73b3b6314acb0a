"""Products whose summed loop runs over a triangle (trmm-like: ``for k <= i``, ``do k = j, m``)
look dense (a row operand, a column operand, a reduction over k), but the range of k differs
between the rows or columns of one register block.  The automatic dense tiling took them and
the schedule then refused its own prefetches (exit 1, "cannot share one loop over k_outer")
on programs without a single mapping pragma (h50's differential hunt).  They now keep the
simple mapping and print exactly what the originals print, in C and Fortran."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample, run

HERE = Path(__file__).parent / "dense_triangles"


@pytest.mark.parametrize("name", ["trmm.c", "trmm.f90"])
def test_triangle_in_summed_loop_maps_and_matches(tmp_path: Path, name: str) -> None:
    src = HERE / name
    out = check_sample(src, tmp_path)
    assert out.count("\n") in (4, 6), out
    report = run([*TRANSLATE, str(src), "-o", str(tmp_path / "report"), "--report=-"], REPO)
    assert "dense tiling" not in report, report
    assert "g.0" in report, report   # still parallel (the simple mapping)
