"""Loop variables after a region (issue 28, item 2): the rewrite gives each DO variable the
procedure (or its caller) may read after the region the value Fortran defines,
``a + max(0, (b - a + s)/s)*s``, and each C loop variable declared outside its ``for`` the
value C leaves in it; where the host cannot compute it, an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import write
from tests.e2e.harness import check_sample
from translator.cli import main

PROGRAM = """\
module counters
  implicit none
  integer :: mcount = -7
end module

subroutine steps(n, a, iout, jout, kout, mout, qout, cout)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n, n)
  integer, intent(out) :: iout, jout, kout, mout, qout, cout
  integer :: i, j, k, m, q, c
  c = 42
  !$translate kernel k1
  do i = 1, n, 2
     a(i, 1) = 2*a(i, 1)
  end do
  do k = 2, n
     do j = 1, n - 1, 3
        a(j, k) = a(j, k) + 1
     end do
  end do
  do m = 2, n - 1
     a(m, m) = 0
  end do
  do q = n - 2, 1, -3
     a(q, 2) = -a(q, 2)
  end do
  do concurrent (c = 1:n)
     a(c, n) = a(c, n) + 0.5d0
  end do
  !$translate end kernel
  iout = i
  jout = j
  kout = k
  mout = m
  qout = q
  cout = c
end subroutine

subroutine counted(n, a, i)
  use counters
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer, intent(inout) :: i
  !$translate kernel k2
  do i = 3, n
     a(i) = a(i) * 3
  end do
  do mcount = 1, n, 4
     a(mcount) = a(mcount) + 1
  end do
  !$translate end kernel
end subroutine

program main
  use counters
  implicit none
  integer, parameter :: n = 12
  real(8) :: a(n, n), b(n)
  integer :: iout, jout, kout, mout, qout, cout, i2
  a = 1
  b = 2
  call steps(n, a, iout, jout, kout, mout, qout, cout)
  print *, iout, jout, kout, mout, qout, cout, sum(a)
  i2 = -1
  call counted(n, b, i2)
  print *, i2, mcount, sum(b)
  call steps(0, a, iout, jout, kout, mout, qout, cout)
  print *, iout, kout, mout, qout, cout
end program
"""


def test_do_variables_after_the_region_match(tmp_path: Path) -> None:
    """Steps 2, 3 and -3, a nested loop, a loop after its last use, DO CONCURRENT (whose
    index is the construct's own), a dummy argument and a module variable as DO variables,
    and zero-trip loops (n = 0): the translated program prints what the original does."""
    src = write(tmp_path, "dovars.f90", PROGRAM)
    work = tmp_path / "work"
    work.mkdir()
    out = check_sample(src, work)
    assert out.split()[:6] == ["13", "13", "13", "12", "-2", "42"]


TRIANGLE = """\
subroutine f(n, a, flag, jout)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n, n)
  logical, intent(in) :: flag
  integer, intent(out) :: jout
  integer :: i, j
  !$translate kernel k
  do i = 1, n
     do j = 1, i
        a(j, i) = 0
     end do
  end do
  !$translate end kernel
  jout = j
end subroutine
"""

UNDER_IF = """\
subroutine f(n, a, flag, iout)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  logical, intent(in) :: flag
  integer, intent(out) :: iout
  integer :: i
  !$translate kernel k
  if (flag) then
     do i = 1, n
        a(i) = 0
     end do
  end if
  !$translate end kernel
  iout = i
end subroutine
"""

DEAD = """\
subroutine f(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n, n)
  integer :: i, j
  do j = 1, n
     a(j, 1) = j
  end do
  !$translate kernel k
  do i = 1, n
     do j = 1, i
        a(j, i) = 0
     end do
  end do
  !$translate end kernel
  do j = 1, n
     a(j, j) = 1
  end do
  i = 3
  a(i, i) = 2
end subroutine
"""


@pytest.mark.parametrize("text, message", [
    (TRIANGLE, "b.f90:9:9: error: the value of DO variable 'j' after region 'k' is used (line "
               "14), but the bounds of the loop over 'j' depend on an enclosing loop of the "
               "region; set it after the region"),
    (UNDER_IF, "b.f90:9:9: error: the value of DO variable 'i' after region 'k' is used (line "
               "14), but its loop is inside an IF of the region; set it after the region"),
])
def test_do_variable_value_not_computable(capsys, tmp_path: Path, text: str,
                                          message: str) -> None:
    src = write(tmp_path, "b.f90", text)
    code = main([str(src), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.replace(str(src), "b.f90")
    assert code == 1 and err.startswith(message + "\n")


def test_redefined_do_variable_needs_no_value(capsys, tmp_path: Path) -> None:
    """``do j = ...`` and ``i = 3`` after the region: their values there are dead, so the
    triangular nest is no error and no assignment is added."""
    src = write(tmp_path, "d.f90", DEAD)
    code = main([str(src), "-o", str(tmp_path / "out")])
    assert code == 0, capsys.readouterr().err
    rewritten = (tmp_path / "out" / "d.f90").read_text()
    assert "call translate_k(a, n)\n# 15 " in rewritten


C_PROGRAM = """\
#include <stdio.h>
enum { LIM = 7 };
void f(int n, double *restrict a, int *out) {
  int i, j, k, m, e;
#pragma translate kernel k1
  for (i = 0; i < n; i += 3)
    a[i] = 2 * a[i];
  for (j = n - 1; j >= 2; j--)
    a[j] += 1;
  for (k = 1; k <= n; k += 4)
    a[k - 1] -= 0.5;
  for (m = n; m > 0; m -= 5)
    a[m - 1] *= 3;
  for (e = 0; e < LIM; e += 2)
    a[e] += 1;
#pragma translate end kernel
  out[0] = i; out[1] = j; out[2] = k; out[3] = m; out[4] = e;
}
int main(void) {
  double a[40];
  int out[5];
  for (int n = 0; n <= 40; n += 13) {
    for (int q = 0; q < 40; q++) a[q] = q;
    f(n, a, out);
    double s = 0;
    for (int q = 0; q < 40; q++) s += a[q];
    printf("%d %d %d %d %d %d %g\\n", n, out[0], out[1], out[2], out[3], out[4], s);
  }
  return 0;
}
"""


def test_c_loop_variables_after_the_region_match(tmp_path: Path) -> None:
    """Steps 3, -1, 4 and -5 with <, >=, <= and >, for n = 0, 13, 26, 39 (zero trips
    included), and a bound that is an enumerator: was refused ('a region does not set
    it')."""
    src = write(tmp_path, "cl.c", C_PROGRAM)
    work = tmp_path / "work"
    work.mkdir()
    out = check_sample(src, work)
    assert out.splitlines()[1].split()[:6] == ["13", "15", "1", "17", "-2", "8"]
