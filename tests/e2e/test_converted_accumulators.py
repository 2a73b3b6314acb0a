"""A float accumulator fed by double terms (issue 20, item 7): ``float s; s += a[i]*b[i]`` with
double a, b is ``s = cast(float32, s + a[i]*b[i])`` in the IR, each update rounded back to
float.  It is a reduction: the terms are converted to the accumulator's type and summed in
it (a rounding of the same sum, as any parallel floating-point reduction is), under the
user's consent to reassociation (--reassociate, set_options, or an explicit mapping).  An
integer accumulator is not (truncating each partial sum is no reduction).  Each program runs
on PoCL against the original."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

C_FLOAT = r"""/* translate-test: rtol=2e-5 */
#include <math.h>
#include <stdio.h>

float fdot(int n, const double *restrict a, const double *restrict b)
{
  float s = 0.5f;
#pragma translate kernel fdot_k
  for (int i = 0; i < n; i++)
    s += a[i]*b[i];
#pragma translate end kernel
  return s;
}

float fdot_split(int n, const double *restrict a, const double *restrict b)
{
  float s = 0.25f;
#pragma translate kernel fdot_split_k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    s = s + a[i]*b[i];
#pragma translate end kernel
  return s;
}

float fmax_of(int n, const double *restrict a, const double *restrict b)
{
  float s = -1e30f;
#pragma translate kernel fmax_k
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    s = fmax(s, a[i]*b[i]);
#pragma translate end kernel
  return s;
}

#define NMAX 300001
static double a[NMAX], b[NMAX], x[NMAX], y[NMAX];

int main(void)
{
  for (int i = 0; i < NMAX; i++) {
    a[i] = (i % 7) * 0.5;            /* exact products and float sums */
    b[i] = (i % 5) * 0.25;
    x[i] = sin(0.001 * i);           /* rounded ones */
    y[i] = cos(0.0007 * i) + 0.5;
  }
  static const int ns[] = {0, 1, 255, 256, 4097, 70001};
  for (int t = 0; t < 6; t++) {
    int n = ns[t];
    printf("%d %.3f %.3f %.4f\n", n, fdot(n, a, b), fdot_split(n, a, b), fmax_of(n, a, b));
  }
  printf("%.6e %.6e %.6e\n", fdot(NMAX, x, y), fdot_split(NMAX, x, y), fmax_of(NMAX, x, y));
  return 0;
}
"""

F_FLOAT = """\
! translate-test: rtol=2e-5
module dots
  implicit none
contains
  subroutine fdot(n, a, b, s)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n), b(n)
    real(4), intent(inout) :: s
    integer :: i
    !$translate kernel fdot_k
    !$translate set_options(reassociate=True)
    do i = 1, n
      s = s + a(i)*b(i)
    end do
    !$translate end kernel
  end subroutine

  subroutine fdot_split(n, a, b, s)
    integer, intent(in) :: n
    real(8), intent(in) :: a(n), b(n)
    real(4), intent(inout) :: s
    integer :: i
    !$translate kernel fdot_split_k
    !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
    do i = 1, n
      s = a(i)*b(i) + s
    end do
    !$translate end kernel
  end subroutine
end module

program main
  use dots
  implicit none
  integer, parameter :: nmax = 300001
  integer, parameter :: ns(5) = [1, 255, 256, 4097, 70001]
  real(8) :: a(nmax), b(nmax), x(nmax), y(nmax)
  real(4) :: s1, s2
  integer :: i, t
  do i = 1, nmax
    a(i) = mod(i, 7) * 0.5d0
    b(i) = mod(i, 5) * 0.25d0
    x(i) = sin(0.001d0 * i)
    y(i) = cos(0.0007d0 * i) + 0.5d0
  end do
  do t = 1, 5
    s1 = 0.5
    s2 = 0.25
    call fdot(ns(t), a, b, s1)
    call fdot_split(ns(t), a, b, s2)
    print '(i7, 2f14.3)', ns(t), s1, s2
  end do
  s1 = 0.5
  s2 = 0.25
  call fdot(nmax, x, y, s1)
  call fdot_split(nmax, x, y, s2)
  print '(2es16.6)', s1, s2
end program
"""

C_INT = r"""
#include <stdio.h>
int idot(int n, const double *restrict a, const double *restrict b)
{
  int s = 0;
#pragma translate kernel idot_k
  for (int i = 0; i < n; i++)
    s += a[i]*b[i];
#pragma translate end kernel
  return s;
}

int main(void)
{
  static double a[1000], b[1000];
  for (int i = 0; i < 1000; i++) { a[i] = (i % 7) * 0.3; b[i] = (i % 5) * 0.7; }
  printf("%d\n", idot(1000, a, b));
  return 0;
}
"""


def _translate(src: Path, out: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TRANSLATE, str(src), "-o", str(out), "--report", *flags],
                          cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name, text, flags", [("fdot.c", C_FLOAT, ("--reassociate",)),
                                               ("fdot.f90", F_FLOAT, ())])
def test_float_accumulator_of_double_terms_is_a_parallel_reduction(
        tmp_path: Path, name: str, text: str, flags: tuple[str, ...]) -> None:
    """Before: ``mapping i to g.0 races`` (the automatic mapping ran the region as a single
    work item, the explicit mappings were refused)."""
    src = tmp_path / name
    src.write_text(text)
    proc = _translate(src, tmp_path / "out", *flags)
    assert proc.returncode == 0, proc.stderr
    report = proc.stdout + proc.stderr
    assert "single work item" not in report and "races" not in report, report
    assert 'split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")' in report
    device = (tmp_path / "out" / f"{src.stem}.cl").read_text()
    assert "(float) (a[" in device          # each term converted to the accumulator's type
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work, flags)


def test_integer_accumulator_of_double_terms_stays_sequential(tmp_path: Path) -> None:
    src = tmp_path / "idot.c"
    src.write_text(C_INT)
    proc = _translate(src, tmp_path / "out", "--reassociate")
    assert proc.returncode == 0, proc.stderr
    assert f"{src}:6:19: warning: region idot_k runs as a single work item: mapping i to " \
        "g.0 races" in proc.stderr
    assert "floating-point reduction" not in proc.stderr
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work, ("--reassociate",))
