"""``nowait`` on a worksharing loop whose body holds an ``omp simd`` loop (h57 differential
hunt, the shape of real codes: ``!$omp do`` over k, ``!$omp simd`` over j, ``!$omp end do
nowait``).  Before, the nested simd loop was taken for a *later* loop of the construct and the
translation stopped with "'nowait' lets the loop at line 11 start before this loop ends, and
they touch the same memory" (exit 1) on a conforming program.  Now the nest is translated and
matches the original; a later loop that reads what the nowait loop writes is still refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

FORTRAN = """\
! translate-test: translate=--directives=openmp
program main
  implicit none
  integer, parameter :: n = 37, m = 23
  real(8) :: a(n, m), b(n, m), c(n, m)
  integer :: i, j
  a = reshape([(0.01d0 * i, i = 1, n * m)], [n, m])
  !$omp parallel
  !$omp do
  do j = 1, m
     !$omp simd
     do i = 1, n
        b(i, j) = a(i, j) * 2 + j
     end do
  end do
  !$omp end do nowait
  !$omp do
  do j = 1, m
     !$omp simd
     do i = 1, n
        c(i, j) = a(i, j) - i
     end do
  end do
  !$omp end do nowait
  !$omp end parallel
  print '(3es24.16)', sum(b), sum(c), b(5, 7) * c(9, 11)
end program
"""

C = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 37
#define M 23
static double a[M][N], b[M][N];
int main(void)
{
  for (int j = 0; j < M; j++)
    for (int i = 0; i < N; i++) a[j][i] = j * 0.5 - i * 0.25;
#pragma omp parallel
  {
#pragma omp for nowait
    for (int j = 0; j < M; j++) {
#pragma omp simd
      for (int i = 0; i < N; i++) b[j][i] = a[j][i] * 2 + j;
    }
  }
  double s = 0;
  for (int j = 0; j < M; j++)
    for (int i = 0; i < N; i++) s += b[j][i] * (i + 1);
  printf("%.17g\\n", s);
  return 0;
}
"""

DEPENDENT = """\
program main
  implicit none
  integer, parameter :: n = 37, m = 23
  real(8) :: a(n, m), b(n, m), c(n, m)
  integer :: i, j
  a = 1
  !$omp parallel
  !$omp do
  do j = 1, m
     !$omp simd
     do i = 1, n
        b(i, j) = a(i, j) * 2
     end do
  end do
  !$omp end do nowait
  !$omp do
  do j = 1, m - 1
     !$omp simd
     do i = 1, n
        c(i, j) = b(i, j + 1)
     end do
  end do
  !$omp end do
  !$omp end parallel
  print *, sum(c)
end program
"""


@pytest.mark.parametrize("name, text", [("nowait_simd.f90", FORTRAN), ("nowait_simd.c", C)])
def test_nowait_loop_holding_a_simd_loop_is_translated(name: str, text: str,
                                                       tmp_path: Path) -> None:
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)


def test_later_dependent_loop_is_still_refused(tmp_path: Path) -> None:
    src = tmp_path / "nowait_dep.f90"
    src.write_text(DEPENDENT)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--directives", "openmp"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("nowait_dep.f90:8:3: error: '!$omp do': 'nowait' lets the loop at line 16 start "
            "before this loop ends, and they touch the same memory") in done.stderr
