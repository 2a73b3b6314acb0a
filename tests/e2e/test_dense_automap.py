"""Dense tiling (automatic), issue 23 item 2, on PoCL: gemm-like and gemv-like nests mapped
without pragmas (register blocks, local-memory tiles, `translator.dense_map`) print exactly
what the sequential program prints -- no FMA contraction, sums in source order -- at sizes
that are not multiples of the tiles (edge groups next to full tiles), in C (polybench.c's
dense and matrix-vector regions) and Fortran (column-major, in-place accumulation, floats,
a transposed operand whose tile is stored transposed and padded, a triangle whose idle
groups skip the summed loop)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.harness import (REPO, SampleOptions, build_original, build_translated,
                               compare_outputs, run)
from translator.dense_map import REASON

POLYBENCH = REPO / "bench" / "gpu" / "polybench.c"
DENSE = ("gemm_pb", "twomm", "threemm", "syrk", "syr2k")
MATVEC = ("atax", "bicg", "mvt", "gemver", "gesummv")

FORTRAN = """
module dense
  implicit none
contains
  subroutine gemm(n, m, p, a, b, c)
    integer, intent(in) :: n, m, p
    real(8), intent(in) :: a(n, p), b(p, m)
    real(8), intent(inout) :: c(n, m)
    real(8) :: acc
    integer :: i, j, k
    !$translate kernel gemm
    do j = 1, m
       do i = 1, n
          acc = 0.5d0 * c(i, j)
          do k = 1, p
             acc = acc + a(i, k) * b(k, j)
          end do
          c(i, j) = acc
       end do
    end do
    !$translate end kernel
  end subroutine gemm

  subroutine sgemm_in_place(n, a, b, c)
    integer, intent(in) :: n
    real(4), intent(in) :: a(n, n), b(n, n)
    real(4), intent(inout) :: c(n, n)
    integer :: i, j, k
    !$translate kernel sgemm_in_place
    do j = 1, n
       do i = 1, n
          do k = 1, n
             c(i, j) = c(i, j) + a(k, i) * b(k, j)
          end do
       end do
    end do
    !$translate end kernel
  end subroutine sgemm_in_place

  ! c = a^T b: the column operand a(k, i) is contiguous along k (its tile stored transposed)
  subroutine gemm_tn(n, m, p, a, b, c)
    integer, intent(in) :: n, m, p
    real(8), intent(in) :: a(p, n), b(p, m)
    real(8), intent(inout) :: c(n, m)
    integer :: i, j, k
    !$translate kernel gemm_tn
    do j = 1, m
       do i = 1, n
          do k = 1, p
             c(i, j) = c(i, j) + a(k, i) * b(k, j)
          end do
       end do
    end do
    !$translate end kernel
  end subroutine gemm_tn

  ! upper triangle (column-major syrk): the groups below the diagonal own no output and
  ! skip the summed loop
  subroutine syrk_up(n, m, a, c)
    integer, intent(in) :: n, m
    real(8), intent(in) :: a(n, m)
    real(8), intent(inout) :: c(n, n)
    integer :: i, j, k
    !$translate kernel syrk_up
    do j = 1, n
       do i = 1, j
          do k = 1, m
             c(i, j) = c(i, j) + a(i, k) * a(j, k)
          end do
       end do
    end do
    !$translate end kernel
  end subroutine syrk_up

  subroutine gemv(n, a, x, y, z)
    integer, intent(in) :: n
    real(8), intent(in) :: a(0:n-1, 0:n-1), x(0:n-1)
    real(8), intent(inout) :: y(0:n-1), z(0:n-1)
    real(8) :: t
    integer :: i, j
    !$translate kernel gemv
    do i = 0, n - 1
       t = 0d0
       do j = 0, n - 1
          t = t + a(i, j) * x(j)
       end do
       y(i) = t
    end do
    do i = 0, n - 1
       t = z(i)
       do j = 0, n - 1
          t = t + a(j, i) * x(j)
       end do
       z(i) = t
    end do
    !$translate end kernel
  end subroutine gemv
end module dense

program main
  use dense
  implicit none
  integer, parameter :: n = 290, m = 133, p = 70, ns = 137
  real(8) :: a(n, p), b(p, m), c(n, m), g(n, n), x(n), y(0:n-1), z(0:n-1)
  real(8) :: at(p, n), ct(n, m), su(n, n)
  real(4) :: sa(ns, ns), sb(ns, ns), sc(ns, ns)
  integer :: i, j
  do j = 1, p
     do i = 1, n
        a(i, j) = mod(i * 7 + j * 3, 101) / 101d0 - 0.3d0
     end do
  end do
  do j = 1, m
     do i = 1, p
        b(i, j) = mod(i * 5 + j * 11, 97) / 97d0
     end do
     do i = 1, n
        c(i, j) = mod(i + j, 13) / 7d0
     end do
  end do
  do j = 1, ns
     do i = 1, ns
        sa(i, j) = mod(i * 3 + j, 17) / 17.0 - 0.5
        sb(i, j) = mod(i + j * 5, 19) / 19.0
        sc(i, j) = 0.25
     end do
  end do
  do j = 1, n
     x(j) = mod(j * 13, 23) / 23d0
     z(j - 1) = 1d0 / j
     do i = 1, n
        g(i, j) = mod(i * 11 + j, 29) / 29d0 - 0.5d0
     end do
  end do
  at = transpose(a)
  ct = c
  call gemm(n, m, p, a, b, c)
  call gemm_tn(n, m, p, at, b, ct)
  call sgemm_in_place(ns, sa, sb, sc)
  call gemv(n, g, x, y, z)
  su = g
  call syrk_up(n, p, a, su)
  write (*, '(3es26.17)') sum(c), c(1, 1), c(n, m)
  write (*, '(3es17.8)') sum(sc), sc(1, 1), sc(ns, ns)
  write (*, '(4es26.17)') sum(y), y(n - 1), sum(z), z(0)
  write (*, '(3es26.17)') sum(ct), ct(1, 1), ct(n, m)
  write (*, '(3es26.17)') sum(su), su(1, n), su(n, 1)
  write (*, '(5z17)') c(7, 9), sc(99, 3), y(76), z(139), ct(200, 100)
  write (*, '(3z17)') su(130, 290), su(290, 130), su(1, 1)
end program main
"""


def _report(out: str) -> dict[str, str]:
    """Each region's block of a --report text, by region name."""
    blocks = re.split(r"^region ", out, flags=re.M)[1:]
    return {b.split()[0]: b for b in blocks}


def test_polybench_dense_and_matvec_regions_tiled_and_exact(tmp_path: Path) -> None:
    opts = SampleOptions(translate_flags=(f"--report={tmp_path / 'report.txt'}",))
    original = build_original(POLYBENCH, tmp_path, opts)
    translated = build_translated(POLYBENCH, tmp_path, opts)
    report = _report((tmp_path / "report.txt").read_text())
    for name in DENSE + MATVEC:
        assert f"chosen by: {REASON}" in report[name], report[name]
    for name in ("gemm_pb", "twomm", "threemm"):
        assert "add_prefetch(" in report[name] and "privatize_temporaries_with_inames(" \
            in report[name]
    # syrk, syr2k: the operand read along both loops gets a tile for each
    # and the column tiles (a[j][k], read across k's contiguous axis) stored transposed
    for name in ("syrk", "syr2k"):
        assert 'add_prefetch("a$row"' in report[name] and 'add_prefetch("a$col"' \
            in report[name], report[name]
        assert "storage_axes=[1, 0], storage_padding=2)" in report[name], report[name]
    # the matrix-vector tiles: loaded by one work item per contiguous element, unrolled
    # across the other side of the tile (rows of a C matrix summed along j; columns summed
    # along i); bicg has one nest of each kind, each in its own launch with its own tiles
    # (one launch would give both nests one work-group shape: issue 23)
    for name in ("atax", "bicg", "mvt", "gesummv"):
        assert re.search(r'tag_inames\("a_\w+_dim_1:l\.0, a_\w+_dim_0:unr"\)', report[name]), \
            report[name]
    assert 'split_iname("j", 123)' in report["atax"] and 'split_iname("i_1", 64)' \
        in report["atax"]
    assert 'split_iname("i", 64)' in report["bicg"] and 'split_iname("j_1", 123)' \
        in report["bicg"]
    assert "  launches per call: 2\n" in report["bicg"], report["bicg"]
    # 150: a full 128 x 64 tile next to edge groups; 16 steps of k and a partial one; 290:
    # nine full groups of 32 outputs and an edge group, full steps of k and a partial one
    args = ["150", "290", "0", "0", "0", "0", "1", ",".join(DENSE + MATVEC)]
    expected = run([str(original), *args], tmp_path)
    actual = run([str(translated), *args], tmp_path, env={"TRANSLATE_DEVICE": "cpu"})
    assert len(expected.splitlines()) == len(DENSE + MATVEC)
    compare_outputs(expected, actual, 0.0)


def test_fortran_dense_nests_tiled_and_exact(tmp_path: Path) -> None:
    src = tmp_path / "dense.f90"
    src.write_text(FORTRAN)
    opts = SampleOptions(translate_flags=(f"--report={tmp_path / 'report.txt'}",))
    original = build_original(src, tmp_path, opts)
    translated = build_translated(src, tmp_path, opts)
    report = _report((tmp_path / "report.txt").read_text())
    assert set(report) == {"gemm", "sgemm_in_place", "gemm_tn", "gemv", "syrk_up"}
    for block in report.values():
        assert f"chosen by: {REASON}" in block, block
    assert 'split_iname("j", 128, outer_tag="g.1")' in report["sgemm_in_place"]
    # a(k, i) read across its contiguous axis: the tile stored transposed and padded
    assert "storage_axes=[0, 1], storage_padding=2)" in report["gemm_tn"], report["gemm_tn"]
    assert "storage_axes" not in report["gemm"]
    # column-major: the first nest (a(i, j), contiguous along the rows i) and the second
    # (a(j, i), contiguous along the summed j) load their tiles along a's first axis
    assert 'tag_inames("a_j_dim_0:l.0, a_j_dim_1:unr")' in report["gemv"]
    assert 'split_iname("j_1", 123)' in report["gemv"]
    assert "  launches per call: 2\n" in report["gemv"], report["gemv"]   # own tiles each
    assert 'tag_inames("a_j_1_dim_0:l.0, a_j_1_dim_1:unr")' in report["gemv"]
    # 290 x 290 in 128 x 64 tiles: 15 groups, 4 of them below the diagonal (idle)
    cl = next(tmp_path.rglob("dense.cl")).read_text()
    assert "&& i_outer <= 2 * j_outer + 1; ++k_outer)" in cl
    expected = run([str(original)], tmp_path)
    actual = run([str(translated)], tmp_path, env={"TRANSLATE_DEVICE": "cpu"})
    compare_outputs(expected, actual, 0.0)
