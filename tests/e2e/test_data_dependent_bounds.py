"""Loop bounds read from arrays (issue 21, item 7): ``do j = rowptr(i), rowptr(i+1)-1`` and
``for (j = rowptr[i]; j < rowptr[i+1]; j++)`` become data-dependent domains (the bounds are
private temporaries set before the inner loop).  CSR sparse matrix-vector products run on PoCL
against the original with the outer loop parallel (``-Werror=sequential-region``); an inner
loop that writes through the column index stays refused with a witness."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

FORTRAN = """\
subroutine spmv(n, nnz, rowptr, col, val, x, y)
  integer, intent(in) :: n, nnz
  integer, intent(in) :: rowptr(n+1), col(nnz)
  real(8), intent(in) :: val(nnz), x(n)
  real(8), intent(out) :: y(n)
  real(8) :: s
  integer :: i, j
  !$translate kernel
  do i = 1, n
     s = 0
     do j = rowptr(i), rowptr(i+1)-1
        s = s + val(j)*x(col(j))
     end do
     y(i) = s
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 500
  integer :: rowptr(n+1), col(5*n)
  real(8) :: val(5*n), x(n), y(n)
  integer :: i, k, nnz
  nnz = 0
  rowptr(1) = 1
  do i = 1, n
     do k = 0, mod(i, 5)
        nnz = nnz + 1
        col(nnz) = mod(i*7 + k*13, n) + 1
        val(nnz) = sin(0.1d0*nnz)
     end do
     rowptr(i+1) = nnz + 1
  end do
  do i = 1, n
     x(i) = cos(0.3d0*i)
  end do
  call spmv(n, nnz, rowptr, col, val, x, y)
  print '(2es24.16)', sum(y), y(7)
end program
"""

C = """\
#include <math.h>
#include <stdio.h>

void spmv(int n, int nnz, const int rowptr[restrict n + 1], const int col[restrict nnz],
          const double val[restrict nnz], const double x[restrict n], double y[restrict n])
{
  double s;
#pragma translate kernel
  for (int i = 0; i < n; i++) {
    s = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      s += val[j] * x[col[j]];
    y[i] = s;
  }
#pragma translate end kernel
}

int main(void)
{
  enum { N = 500 };
  static int rowptr[N + 1], col[5 * N];
  static double val[5 * N], x[N], y[N];
  int nnz = 0;
  rowptr[0] = 0;
  for (int i = 0; i < N; i++) {
    for (int k = 0; k <= (i + 1) % 5; k++) {
      col[nnz] = ((i + 1) * 7 + k * 13) % N;
      val[nnz] = sin(0.1 * (nnz + 1));
      nnz++;
    }
    rowptr[i + 1] = nnz;
  }
  for (int i = 0; i < N; i++) x[i] = cos(0.3 * (i + 1));
  spmv(N, nnz, rowptr, col, val, x, y);
  double t = 0;
  for (int i = 0; i < N; i++) t += y[i];
  printf("%.16e %.16e\\n", t, y[6]);
  return 0;
}
"""


# neighbours: an array section with bounds read from an array, and a data-dependent loop whose
# bounds also read an enclosing data-dependent loop's variable (triangular inside a row)
NEIGHBOURS = """\
subroutine rows(n, nnz, rowptr, val, w)
  integer, intent(in) :: n, nnz
  integer, intent(in) :: rowptr(n+1)
  real(8), intent(inout) :: val(nnz)
  real(8), intent(out) :: w(n)
  integer :: i, j, k
  !$translate kernel
  do i = 1, n
     w(i) = sum(val(rowptr(i):rowptr(i+1)-1))
     do j = 1, rowptr(i+1) - rowptr(i)
        do k = rowptr(i), rowptr(i) + j - 1
           w(i) = w(i) + 0.5d0*val(k)
        end do
     end do
  end do
  !$translate end kernel
end subroutine
program main
  integer, parameter :: n = 300
  integer :: rowptr(n+1), i
  real(8) :: val(3*n), w(n)
  rowptr(1) = 1
  do i = 1, n
    rowptr(i+1) = rowptr(i) + mod(i, 4)
  end do
  do i = 1, 3*n
    val(i) = sin(0.2d0*i)
  end do
  call rows(n, 3*n, rowptr, val, w)
  print '(2es24.16)', sum(w), w(7)
end program
"""


@pytest.mark.parametrize("name, text", [("csr.f90", FORTRAN), ("csr.c", C),
                                        ("rows.f90", NEIGHBOURS)])
def test_csr_spmv_runs_with_rows_in_parallel(tmp_path: Path, name: str, text: str):
    src = tmp_path / name
    src.write_text(text)
    out = check_sample(src, tmp_path, ("-Werror=sequential-region",))
    assert len(out.split()) == 2
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "report"), "--report"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "i_inner  l.0  legal" in proc.stderr and "i_outer  g.0  legal" in proc.stderr


RACE_FORTRAN = """\
subroutine spmvt(n, nnz, rowptr, col, val, x, y)
  integer, intent(in) :: n, nnz
  integer, intent(in) :: rowptr(n+1), col(nnz)
  real(8), intent(in) :: val(nnz), x(n)
  real(8), intent(inout) :: y(n)
  integer :: i, j
  !$translate kernel
  do i = 1, n
     do j = rowptr(i), rowptr(i+1)-1
        y(col(j)) = y(col(j)) + val(j)*x(i)
     end do
  end do
  !$translate end kernel
end subroutine
"""

RACE_C = """\
void spmvt(int n, int nnz, const int rowptr[restrict n + 1], const int col[restrict nnz],
           const double val[restrict nnz], const double x[restrict n], double y[restrict n])
{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++)
      y[col[j]] += val[j] * x[i];
#pragma translate end kernel
}
"""

SPLIT = {".f90": '  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")\n',
         ".c": '#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")\n'}


def _translate(src: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TRANSLATE, str(src), "-o", str(src.parent / "out"), *flags],
                          cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("suffix, text, line", [(".f90", RACE_FORTRAN, 10), (".c", RACE_C, 7)])
def test_indirect_write_in_data_dependent_loop_is_refused(tmp_path: Path, suffix: str,
                                                          text: str, line: int):
    src = tmp_path / f"race{suffix}"
    src.write_text(text)
    proc = _translate(src, "-Werror=sequential-region")
    assert proc.returncode == 1, proc.stderr
    assert "runs as a single work item: mapping i to g.0 may race (a subscript is not " \
        "affine" in proc.stderr, proc.stderr
    assert f"writes y[?] ({src}:{line})" in proc.stderr
    kernel_line = "kernel\n"
    src.write_text(text.replace(kernel_line, kernel_line + SPLIT[suffix], 1))
    proc = _translate(src)
    assert proc.returncode == 1, proc.stderr
    assert f"{src}:{line + 1}:" in proc.stderr
    assert "error: mapping i_inner to l.0 may race" in proc.stderr, proc.stderr
    assert "  for example when n=" in proc.stderr
    assert "_tr_bound" not in proc.stderr


def test_c_pointer_without_extent_is_diagnosed(tmp_path: Path):
    """A pointer indexed by a loop whose bounds are read from a table: its extent is the
    table's largest value, which the call computes (h86); a table the region writes gives
    no such extent, and the message says so."""
    src = tmp_path / "ptr.c"
    text = (RACE_C.replace("const double val[restrict nnz]", "const double *val")
            .replace("y[col[j]] += val[j] * x[i];", "y[i] += val[j] * x[i];"))
    src.write_text(text)
    proc = _translate(src)
    assert proc.returncode == 0, proc.stderr
    assert "tr_index_max_i32(rowptr, (n + 1))" in (tmp_path / "out" / "ptr.c").read_text()
    src.write_text(text.replace("const int rowptr[restrict n + 1]", "int rowptr[restrict n + 1]")
                   .replace("y[i] += val[j] * x[i];\n", "y[i] += val[j] * x[i];\n"
                            "  for (int i = 0; i < n; i++)\n    rowptr[i] = 0;\n"))
    proc = _translate(src)
    assert proc.returncode == 1, proc.stderr
    assert f"{src}:7:7: error: cannot tell how many elements of 'val' the region accesses (a " \
        "loop bound is read from an array); declare it as an array parameter with its " \
        "extent, e.g. 'double a[n]'" in proc.stderr, proc.stderr
