"""CYCLE (Fortran) and ``continue`` (C) in region loops: the rest of the iteration is skipped,
lowered to guards on the statements after it (frontends/fortran/cycles.py,
frontends/c/build.py).  Each program runs as written and as translated on the CPU device; the
outputs must be identical."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import write
from tests.e2e.harness import check_sample
from translator.cli import main

FORTRAN = """\
module clipper
  implicit none
contains
  subroutine clip(n, x)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    integer :: k
    do k = 1, n
       if (x(k) < 0) cycle
       x(k) = min(x(k), 4d0)
    end do
  end subroutine
end module

subroutine work(n, a, b, c, d, s, cnt)
  use clipper
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), b(n), c(n, n), d(n)
  real(8), intent(out) :: s
  integer, intent(out) :: cnt
  integer :: i, j, m
  real(8) :: t, w
  s = 0
  cnt = 0
  !$translate kernel skip_negative
  do i = 1, n
     if (a(i) < 0) cycle
     t = 2*a(i)
     b(i) = t + 1
  end do
  !$translate end kernel
  !$translate kernel in_if_block
  do i = 1, n
     if (a(i) > 5) then
        b(i) = -1
        cycle
     end if
     b(i) = b(i) + a(i)
  end do
  !$translate end kernel
  !$translate kernel in_select
  do i = 1, n
     select case (mod(i, 4))
     case (0)
        cycle
     case (1, 2)
        d(i) = 1
     case default
        d(i) = 2
     end select
     d(i) = d(i) + a(i)
  end do
  !$translate end kernel
  !$translate kernel innermost
  do j = 1, n
     c(j, j) = -5
     inner: do i = 1, n
        if (i == j) cycle inner
        c(i, j) = a(i) * j
     end do inner
  end do
  !$translate end kernel
  !$translate kernel with_sum
  !$translate set_options(reassociate=True)
  do i = 1, n
     if (a(i) < 0) cycle
     s = s + a(i)
     cnt = cnt + 1
  end do
  !$translate end kernel
  !$translate kernel writes_condition
  do i = 1, n
     if (a(i) < 0) cycle
     a(i) = a(i) - 100
     if (a(i) < -97) cycle
     b(i) = a(i)
  end do
  !$translate end kernel
  !$translate kernel select_private
  do i = 1, n
     m = mod(i, 5) * 2 - 3
     select case (m)
     case (:-2, 4:)
        w = a(i)
     case default
        w = -a(i)
     case (0)
        w = 100
        m = 7
     end select
     d(i) = d(i) + w + m
  end do
  !$translate end kernel
  !$translate kernel unconditional
  do i = 1, n
     d(i) = d(i) * 3
     cycle
     d(i) = 0
  end do
  !$translate end kernel
  !$translate kernel in_callee
  call clip(n, b)
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 10
  real(8) :: a(n), b(n), c(n, n), d(n), s
  integer :: i, cnt
  do i = 1, n
     a(i) = (-1)**i * i * 1.5d0
  end do
  b = 7
  c = 0
  d = 0
  call work(n, a, b, c, d, s, cnt)
  print '(10es25.16)', a
  print '(10es25.16)', b
  print '(10es25.16)', c
  print '(10es25.16)', d
  print '(es25.16, i5)', s, cnt
  call work(0, a, b, c, d, s, cnt)
  print '(es25.16, i5)', s, cnt
end program
"""

OPENMP = """\
subroutine smooth(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(inout) :: b(n)
  integer :: i
  real(8) :: t
  !$omp parallel do private(t)
  do i = 2, n - 1
     t = a(i - 1) + a(i + 1)
     if (t < 0) cycle
     b(i) = 0.5d0 * t
  end do
  !$omp end parallel do
end subroutine

program main
  implicit none
  integer, parameter :: n = 300
  real(8) :: a(n), b(n)
  integer :: i
  do i = 1, n
     a(i) = sin(0.1d0 * i)
  end do
  b = -1
  call smooth(n, a, b)
  print '(4es25.16)', b
end program
"""


def _check(tmp_path: Path, name: str, text: str, *extra: str) -> str:
    src = write(tmp_path, name, text)
    work = tmp_path / "work"
    work.mkdir()
    return check_sample(src, work, extra)


def test_fortran_cycle_matches(tmp_path: Path) -> None:
    """CYCLE under an IF statement, inside an IF block after other statements, in a CASE of
    SELECT CASE, of the innermost loop of a nest (named), with a reduction (the skipped
    iterations add nothing, in parallel with reassociation), before a write of what its
    condition reads (evaluated once, at the CYCLE), unconditional, in an inlined callee's
    loop, and a zero-trip call; SELECT CASE with ranges and DEFAULT between the CASEs, whose
    selector the construct writes, every branch setting a private scalar."""
    out = _check(tmp_path, "cycles.f90", FORTRAN)
    assert out.splitlines()[-2].split() == ["4.5000000000000000E+01", "5"]


def test_fortran_cycle_in_openmp_loop(tmp_path: Path) -> None:
    """CYCLE in a loop an ``!$omp parallel do`` claims, after the private scalar it tests."""
    _check(tmp_path, "omp.f90", OPENMP, "--directives", "openmp")


CONCURRENT = """\
program p
  implicit none
  integer, parameter :: n = 9
  real(8) :: a(n), b(n)
  integer :: i
  a = [(i * (-1)**i, i = 1, n)]
  b = 0
  !$translate kernel k
  do concurrent (i = 1:n, a(i) /= -3)
     if (a(i) < 0) cycle
     b(i) = sqrt(a(i))
  end do
  !$translate end kernel
  print '(9es25.16)', b
end program
"""

#: Fixed form, two labelled DO loops sharing their terminal statement (CYCLE: the inner one).
LABELLED = """\
      PROGRAM P
      INTEGER N
      PARAMETER (N = 6)
      DOUBLE PRECISION A(N, N)
      INTEGER I, J
      DO 5 J = 1, N
      DO 5 I = 1, N
        A(I, J) = I - J
    5 CONTINUE
!$translate kernel k
      DO 30 J = 1, N
      DO 30 I = 1, N
        IF (A(I, J) .LT. 0) CYCLE
        A(I, J) = A(I, J) * 2 + 1
   30 CONTINUE
!$translate end kernel
      PRINT '(6F8.2)', A
      END
"""


@pytest.mark.parametrize("name, text", [("dc.f90", CONCURRENT), ("lab.f", LABELLED)])
def test_fortran_cycle_other_loops(tmp_path: Path, name: str, text: str) -> None:
    """CYCLE in DO CONCURRENT (with a mask) and in a shared-termination labelled DO nest."""
    _check(tmp_path, name, text)


COMPONENT = """\
module m
  type t
    real(8) :: x(8)
  end type
end module
program p
  use m
  implicit none
  type(t) :: c
  real(8) :: b(8)
  integer :: i
  c%x = [(i * (-1)**i, i = 1, 8)]
  b = 0
  !$translate kernel k
  do i = 1, 8
     if (c%x(i) > 0) then
        c%x(i) = -1
        b(i) = c%x(i)
     end if
  end do
  !$translate end kernel
  !$translate kernel k2
  do i = 1, 8
     if (c%x(i) < -2) cycle
     c%x(i) = 10
     b(i) = b(i) + c%x(i)
  end do
  !$translate end kernel
  print '(8f6.1)', b
  print '(8f6.1)', c%x
end program
"""


def test_fortran_condition_on_a_component(tmp_path: Path) -> None:
    """An IF block and a CYCLE whose condition reads a component (``c%x(i)``) that the
    construct or the loop body writes: the condition is evaluated once, before the write.
    Before: not hoisted (the kernel's ``c_x`` was not matched with the written ``c``), so the
    statements after the write tested the new value (b differed from the original's)."""
    out = _check(tmp_path, "comp.f90", COMPONENT)
    assert out.splitlines()[0].split()[:2] == ["10.0", "9.0"]


OUTER = """\
subroutine s(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n, n)
  integer :: i, j
  !$translate kernel k
  outer: do j = 1, n
     do i = 1, n
        if (a(i, j) < 0) cycle outer
        a(i, j) = 1
     end do
  end do outer
  !$translate end kernel
end subroutine
"""

OUTSIDE = """\
subroutine s(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n, n)
  integer :: i, j
  do j = 1, n
     !$translate kernel k
     if (a(1, j) < 0) cycle
     do i = 1, n
        a(i, j) = 1
     end do
     !$translate end kernel
  end do
end subroutine
"""

LOGICAL_CASE = """\
subroutine s(n, a, flag)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  logical, intent(in) :: flag
  integer :: i
  !$translate kernel k
  do i = 1, n
     select case (flag)
     case (.true.)
        a(i) = 1
     end select
  end do
  !$translate end kernel
end subroutine
"""


@pytest.mark.parametrize("text, message", [
    (OUTER, "b.f90:8:32: error: CYCLE outer of an outer DO loop is not supported inside a "
            "kernel region: only CYCLE of the innermost loop (put the rest of the outer "
            "loop's body under an IF)"),
    (OUTSIDE, "b.f90:7:23: error: CYCLE statement outside the DO loops of the region is not "
              "supported inside a kernel region"),
    (LOGICAL_CASE, "b.f90:8:6: error: SELECT CASE on a logical selector is not supported "
                   "inside a kernel region (integer selectors are); write it as an IF ... ELSE IF chain"),
])
def test_fortran_cycle_refused(capsys, tmp_path: Path, text: str, message: str) -> None:
    src = write(tmp_path, "b.f90", text)
    code = main([str(src), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.replace(str(src), "b.f90")
    assert code == 1 and err.startswith(message + "\n"), err


C_PROGRAM = """\
#include <stdio.h>
#define N 10

static void clip(int n, double *x)
{
  for (int k = 0; k < n; k++) {
    if (x[k] < 0)
      continue;
    x[k] = x[k] < 4 ? x[k] : 4;
  }
}

void work(int n, double *restrict a, double *restrict b, double c[][N],
          double *restrict d, double *s, int *cnt)
{
  double t, acc = 0;
  int i, j, m = 0;
#pragma translate kernel skip_negative
  for (i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    t = 2 * a[i];
    b[i] = t + 1;
  }
#pragma translate end kernel
#pragma translate kernel in_if_block
  for (i = 0; i < n; i++) {
    if (a[i] > 5) {
      b[i] = -1;
      continue;
    } else if (a[i] > 3) {
      b[i] = -2;
    }
    b[i] += a[i];
  }
#pragma translate end kernel
#pragma translate kernel innermost
  for (j = 0; j < n; j++) {
    c[j][j] = -5;
    for (int k = 0; k < n; k++) {
      if (k == j) continue;
      c[j][k] = a[k] * j;
    }
  }
#pragma translate end kernel
#pragma translate kernel with_sum
#pragma translate set_options(reassociate=True)
  for (i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    acc += a[i];
    m += 1;
  }
#pragma translate end kernel
  *s = acc;
  *cnt = m;
#pragma translate kernel writes_condition
  for (i = 0; i < n; i++) {
    if (a[i] < 0) continue;
    a[i] -= 100;
    if (a[i] < -97) continue;
    b[i] = a[i];
  }
#pragma translate end kernel
#pragma translate kernel unconditional
  for (i = 0; i < n; i++) {
    d[i] *= 3;
    continue;
    d[i] = 0;
  }
#pragma translate end kernel
#pragma translate kernel in_callee
  clip(n, b);
#pragma translate end kernel
  double *q = b + 1;
#pragma translate kernel through_pointer
  for (i = 0; i < n - 1; i++) {
    if (q[i] < 0) continue;
    q[i] = -5;
    c[1][i] = q[i];
  }
#pragma translate end kernel
}

void smooth(int n, const double *restrict a, double *restrict b)
{
  #pragma omp parallel for
  for (int i = 1; i < n - 1; i++) {
    double t = a[i - 1] + a[i + 1];
    if (t < 0) continue;
    b[i] = 0.5 * t;
  }
}

int main(void)
{
  double a[N], b[N], c[N][N], d[N], s = 0;
  double x[300], y[300];
  int cnt = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (i % 2 ? -1.5 : 1.5) * (i + 1);
    b[i] = 7;
    d[i] = i;
  }
  for (int i = 0; i < N * N; i++) c[i / N][i % N] = 0;
  work(N, a, b, c, d, &s, &cnt);
  for (int i = 0; i < N; i++) printf("%.17g %.17g %.17g\\n", a[i], b[i], d[i]);
  for (int i = 0; i < N * N; i++) printf("%.17g\\n", c[i / N][i % N]);
  printf("%.17g %d\\n", s, cnt);
  work(0, a, b, c, d, &s, &cnt);
  printf("%.17g %d\\n", s, cnt);
  for (int i = 0; i < 300; i++) { x[i] = __builtin_sin(0.1 * i); y[i] = -1; }
  smooth(300, x, y);
  for (int i = 0; i < 300; i++) printf("%.17g\\n", y[i]);
  return 0;
}
"""


def test_c_continue_matches(tmp_path: Path) -> None:
    """The same shapes in C: ``continue`` under an if, in an if block (with an else if), of
    the innermost loop, with a reduction, before a write of what its condition reads,
    unconditional, in an inlined function's loop, before a write through a pointer into the
    array it tests, and in an ``omp parallel for`` loop after the block-scope scalar it
    tests."""
    _check(tmp_path, "cont.c", C_PROGRAM, "--directives", "openmp,translate")
    assert "__kernel" in (tmp_path / "work" / "out" / "cont.cl").read_text()


C_OUTSIDE = """\
void f(int n, double *restrict a)
{
  for (int j = 0; j < n; j++) {
#pragma translate kernel k
    if (a[j] < 0) continue;
    for (int i = 0; i < n; i++)
      a[i] += 1;
#pragma translate end kernel
  }
}
"""


def test_c_continue_outside_region_loops(capsys, tmp_path: Path) -> None:
    src = write(tmp_path, "b.c", C_OUTSIDE)
    code = main([str(src), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.replace(str(src), "b.c")
    assert code == 1 and err.startswith(
        "b.c:5:19: error: continue outside the for loops of the region is not supported\n"), err
