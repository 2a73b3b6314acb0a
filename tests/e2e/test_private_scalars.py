"""Scalars that real kernels use as temporaries are private, so the loops run in parallel
(issue 21, item 1): a scalar written on every path of an IF/ELSE (and an ELSE IF chain), one
scalar used in several nests of a region, a temporary under a condition that reads another
private scalar.  Fortran and C, run on PoCL against the original; ``-Werror=sequential-region``
makes a region that falls back to one work item fail.  Carried cases stay refused with a
witness."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

FORTRAN = """\
subroutine both(n, a, b)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  real(8) :: t
  integer :: i
  !$translate kernel
  do i = 1, n
     if (a(i) > 0) then
        t = a(i)
     else
        t = -a(i)
     end if
     b(i) = t
  end do
  !$translate end kernel
end subroutine

subroutine chain(n, a, b)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  real(8) :: t
  integer :: i
  !$translate kernel
  do i = 1, n
     if (a(i) > 0.5d0) then
        t = 1
     else if (a(i) > -0.5d0) then
        t = 2*a(i)
     else
        t = 3
     end if
     b(i) = t*t
  end do
  !$translate end kernel
end subroutine

subroutine nests(n, a, b, c)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n), c(n)
  real(8) :: t
  integer :: i
  !$translate kernel
  do i = 1, n
     t = 2*a(i)
     b(i) = t + 1
  end do
  do i = 1, n
     t = 3*a(i)
     c(i) = t + 1
  end do
  !$translate end kernel
end subroutine

subroutine guarded(n, a, b)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(inout) :: b(n)
  real(8) :: t, p
  integer :: i
  !$translate kernel
  do i = 1, n
     p = a(i)
     if (p > 0.25d0) then
        t = 2*p
        b(i) = t
     end if
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), b(n), c(n)
  integer :: i
  do i = 1, n
     a(i) = sin(0.37d0*i)
  end do
  call both(n, a, b)
  print '(2es24.16)', sum(b), b(7)
  call chain(n, a, b)
  print '(2es24.16)', sum(b), b(11)
  call nests(n, a, b, c)
  print '(2es24.16)', sum(b), sum(c)
  b = -1
  call guarded(n, a, b)
  print '(2es24.16)', sum(b), b(3)
end program
"""

C = """\
#include <math.h>
#include <stdio.h>

void both(int n, const double *restrict a, double *restrict b)
{
  double t;
#pragma translate kernel
  for (int i = 0; i < n; i++) {
    if (a[i] > 0) t = a[i]; else t = -a[i];
    b[i] = t;
  }
#pragma translate end kernel
}

void chain(int n, const double *restrict a, double *restrict b)
{
  double t;
#pragma translate kernel
  for (int i = 0; i < n; i++) {
    if (a[i] > 0.5) t = 1;
    else if (a[i] > -0.5) t = 2 * a[i];
    else t = 3;
    b[i] = t * t;
  }
#pragma translate end kernel
}

void nests(int n, const double *restrict a, double *restrict b, double *restrict c)
{
  double t;
#pragma translate kernel
  for (int i = 0; i < n; i++) { t = 2 * a[i]; b[i] = t + 1; }
  for (int i = 0; i < n; i++) { t = 3 * a[i]; c[i] = t + 1; }
#pragma translate end kernel
}

void guarded(int n, const double *restrict a, double *restrict b)
{
  double t, p;
#pragma translate kernel
  for (int i = 0; i < n; i++) {
    p = a[i];
    if (p > 0.25) { t = 2 * p; b[i] = t; }
  }
#pragma translate end kernel
}

void scoped(int n, const double *restrict a, double *restrict b)
{
#pragma translate kernel
  for (int i = 0; i < n; i++) {
    double t;
    if (a[i] > 0) t = a[i]; else t = -2 * a[i];
    b[i] = t;
  }
#pragma translate end kernel
}

static double sum(int n, const double *x)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i];
  return s;
}

int main(void)
{
  enum { N = 1000 };
  static double a[N], b[N], c[N];
  for (int i = 0; i < N; i++) a[i] = sin(0.37 * (i + 1));
  both(N, a, b);
  printf("%.16e %.16e\\n", sum(N, b), b[6]);
  chain(N, a, b);
  printf("%.16e %.16e\\n", sum(N, b), b[10]);
  nests(N, a, b, c);
  printf("%.16e %.16e\\n", sum(N, b), sum(N, c));
  for (int i = 0; i < N; i++) b[i] = -1;
  guarded(N, a, b);
  printf("%.16e %.16e\\n", sum(N, b), b[2]);
  scoped(N, a, b);
  printf("%.16e %.16e\\n", sum(N, b), b[4]);
  return 0;
}
"""


@pytest.mark.parametrize("name, text", [("private_shapes.f90", FORTRAN),
                                        ("private_shapes.c", C)])
def test_private_scalar_shapes_run_in_parallel(tmp_path: Path, name: str, text: str):
    src = tmp_path / name
    src.write_text(text)
    out = check_sample(src, tmp_path, ("-Werror=sequential-region",))
    assert len(out.splitlines()) == text.count("print '(") + text.count('printf("%.16e')


# ---------------------------------------------------------------------------------------------
# carried values stay refused, with a witness

CARRIED = {
    "one branch": ("     if (a(i) > 0) then\n        t = a(i)\n     end if\n     b(i) = t\n"),
    "else if without else": ("     if (a(i) > 0.5d0) then\n        t = 1\n"
                             "     else if (a(i) > 0) then\n        t = 2\n     end if\n"
                             "     b(i) = t\n"),
    "condition changed between": ("     p = a(i)\n     if (p > 0) then\n        t = p\n"
                                  "     end if\n     p = -p\n     if (p > 0) then\n"
                                  "        b(i) = t\n     end if\n"),
}


@pytest.mark.parametrize("shape", sorted(CARRIED))
def test_carried_scalars_are_refused(tmp_path: Path, shape: str):
    src = tmp_path / "carried.f90"
    src.write_text("subroutine s(n, a, b)\n  integer, intent(in) :: n\n"
                   "  real(8), intent(in) :: a(n)\n  real(8), intent(inout) :: b(n)\n"
                   "  real(8) :: t, p\n  integer :: i\n  !$translate kernel\n"
                   '  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")\n'
                   "  do i = 1, n\n" + CARRIED[shape] + "  end do\n  !$translate end kernel\n"
                   "end subroutine\n")
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out")], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "error: mapping i_inner to l.0 races: " in proc.stderr or \
        "error: mapping i_outer to g.0 races: " in proc.stderr, proc.stderr
    assert " writes t[0]" in proc.stderr


# ---------------------------------------------------------------------------------------------
# a scalar one region writes and a later region of the same procedure reads is not private to
# the first (was: private, so the second region read the host's stale value)

TWO_REGIONS = """\
subroutine s(n, a, b)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), b(n)
  real(8) :: t
  integer :: i
  !$translate kernel
  t = 3
  do i = 1, n
     a(i) = t*a(i)
  end do
  !$translate end kernel
  !$translate kernel
  do i = 1, n
     b(i) = t*b(i)
  end do
  !$translate end kernel
end subroutine

program m
  integer, parameter :: n = 8
  real(8) :: a(n), b(n)
  a = 1
  b = 1
  call s(n, a, b)
  print '(2es24.16)', a(1), b(1)
end program
"""


def test_scalar_written_in_one_region_read_in_the_next(tmp_path: Path):
    src = tmp_path / "two_regions.f90"
    src.write_text(TWO_REGIONS)
    out = check_sample(src, tmp_path)
    assert out.split() == ["3.0000000000000000E+00"] * 2
