"""Integer conversions in subscripts and loop bounds (``b[(long)i * n + j]``, ``int(i, 8)``):
transparent to the affine and linearised-subscript analysis, kept in the kernel's arithmetic.
Conversions of floats (``(int)x``) stay opaque.  Issue 20, item 5."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

C_SOURCE = """\
#include <stdio.h>
#include <stdint.h>
#include <stddef.h>

void scale(int n, int m, double x, const double *restrict a, double *restrict b,
           double *restrict c, double *restrict d) {
#pragma translate kernel casts
  for (long i = 0; i < (long)n; i++)
    for (int j = 0; j < (int)m; j++) {
      b[(long)i * m + j] = 2.0 * a[(size_t)i * (size_t)m + (size_t)j];
      c[(int64_t)j * n + i] = a[(unsigned)(i * m + j)] + 1.0;
    }
  for (int k = 0; k < (int)x; k++)
    d[(long)(int)k + 1] = (double)k * x;
#pragma translate end kernel
}

int main(void) {
  enum { N = 37, M = 29 };
  static double a[N * M], b[N * M], c[N * M], d[20];
  for (int i = 0; i < N * M; i++)
    a[i] = 0.5 * i - 3.0;
  scale(N, M, 7.9, a, b, c, d);
  double s = 0;
  for (int i = 0; i < N * M; i++)
    s += b[i] * (i % 7) + c[i] * (i % 5);
  printf("%.17g %.17g %.17g %.17g %.17g\\n", s, b[5], c[N * M - 1], d[1], d[7]);
  return 0;
}
"""

FORTRAN_SOURCE = """\
subroutine scale(n, m, x, a, b, c)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: x
  real(8), intent(in) :: a(n*m)
  real(8), intent(inout) :: b(n*m), c(0:20)
  integer :: i, j, k
  !$translate kernel casts
  do i = 0, int(n, 8) - 1
     do j = 1, int(m, kind=8)
        b(int(i, 8) * m + j) = 2d0 * a(int(i, kind=8) * int(m, 8) + int(j, 8))
     end do
  end do
  do k = 1, int(x)
     c(int(int(k, 8), 4)) = k * x
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 37, m = 29
  real(8) :: a(n*m), b(n*m), c(0:20)
  integer :: i
  do i = 1, n*m
     a(i) = 0.5d0 * i - 3d0
  end do
  b = 0
  c = 0
  call scale(n, m, 7.9d0, a, b, c)
  print '(4es25.16)', sum(b * mod([(i, i = 1, n*m)], 7)), b(5), c(1), c(7)
end program
"""


def _report(src: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "--emit", "cl",
                           "--report"], cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name, text", [("casts.c", C_SOURCE), ("casts.f90", FORTRAN_SOURCE)])
def test_integer_casts_in_subscripts_and_bounds(name: str, text: str, tmp_path: Path) -> None:
    src = tmp_path / name
    src.write_text(text)
    proc = _report(src)
    assert proc.returncode == 0, proc.stderr
    # The linearised subscripts stay exact: the nest is mapped in parallel, not sequential.
    assert "-Wsequential-region" not in proc.stderr
    assert "i_outer" in proc.stderr and "j_outer" in proc.stderr
    # A conversion of a float in a bound is computed by the caller, never taken as an integer;
    # the report writes the value the caller passes as the source writes it.
    assert ("int(x)" if name.endswith(".f90") else "((int) x)") in proc.stderr
    assert "_tr_bound" not in proc.stderr
    # The kernel keeps the 64-bit arithmetic the source asked for.
    assert "(long)" in proc.stdout
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


FLOAT_CAST = """\
void f(int n, double x, double *restrict b, const double *restrict a) {
#pragma translate kernel k
  for (int i = 0; i < n; i++)
    b[(int)x + i] = a[i];
#pragma translate end kernel
}
"""


def test_float_conversion_in_a_subscript_is_not_affine(tmp_path: Path) -> None:
    src = tmp_path / "fl.c"
    src.write_text(FLOAT_CAST)
    proc = _report(src)
    assert proc.returncode == 1
    assert (f"{src}:4:5: error: cannot tell how many elements of 'b' the region accesses "
            "(subscript cast(int32, x) + i is neither affine nor a linearised "
            "multi-dimensional index)") in proc.stderr
