"""``-Wstale-host-access`` follows calls (issue 20, item 6): a time loop in a data region
calls a routine with a kernel region (which leaves the array newer on the device) and an
output routine that reads it on the host; the warning is at the call, naming the array, the
routine and the line of the read.  A routine that does not touch the array is silent; a
routine the translator cannot see gets a warning of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import write
from translator.cli import main

FORTRAN = """\
module heat
  implicit none
contains
  subroutine step(n, u, v)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n), v(n)
    integer :: i
    !$translate kernel step_k
    do i = 2, n - 1
       v(i) = 0.5d0 * (u(i-1) + u(i+1))
    end do
    do i = 2, n - 1
       u(i) = v(i)
    end do
    !$translate end kernel
  end subroutine

  subroutine output(n, t, w)
    integer, intent(in) :: n, t
    real(8), intent(in) :: w(n)
    print *, t, w(n/2)
  end subroutine

  subroutine report(n, t, w)
    integer, intent(in) :: n, t
    real(8), intent(in) :: w(n)
    call output(n, t, w)
  end subroutine

  subroutine quiet(n, w)
    integer, intent(in) :: n
    real(8), intent(in) :: w(n)
  end subroutine
end module

program main
  use heat
  implicit none
  integer, parameter :: n = 100
  real(8) :: u(n), v(n)
  integer :: t
  u = 0
  u(n/2) = 1000
  v = 0
  !$translate data copy(u) create(v)
  do t = 1, 3
     call step(n, u, v)
     call quiet(n, u)
     call report(n, t, u)
     call external_dump(n, u)
  end do
  !$translate end data
end program
"""

C = """\
#include <stdio.h>

void external_dump(int n, const double *u);

static void step(int n, double *restrict u, double *restrict v) {
#pragma translate kernel step_k
  for (int i = 1; i < n - 1; i++)
    v[i] = 0.5 * (u[i - 1] + u[i + 1]);
  for (int i = 1; i < n - 1; i++)
    u[i] = v[i];
#pragma translate end kernel
}

static void output(int n, int t, const double *w) {
  printf("%d %g\\n", t, w[n / 2]);
}

static void report(int n, int t, const double *w) {
  output(n, t, w);
}

static void quiet(int n, const double *w) {
  if (n < 0)
    printf("negative\\n");
}

void run(int n, double *u, double *v) {
#pragma translate data copy(u[0:n]) create(v[0:n])
  for (int t = 1; t <= 3; t++) {
    step(n, u, v);
    quiet(n, u);
    report(n, t, u);
    external_dump(n, u);
  }
#pragma translate end data
}
"""


def warnings_of(capsys, tmp_path: Path, name: str, text: str) -> list[str]:
    src = write(tmp_path, name, text)
    code = main([str(src), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.replace(str(src), name)
    assert code == 0, err
    return [row for row in err.splitlines() if "warning:" in row]


def test_fortran_stale_read_through_calls(capsys, tmp_path: Path) -> None:
    rows = warnings_of(capsys, tmp_path, "st.f90", FORTRAN)
    assert rows == [
        "st.f90:49:24: warning: the call of 'report' reads or writes 'u' on the host (in "
        "'output', line 21), which region 'step_k' (in 'step', called at line 47) last wrote "
        "on the device (data region at line 45): add '!$translate update host(u)' before this "
        "call [-Wstale-host-access]",
        "st.f90:50:28: warning: 'u' is on the device (data region at line 45) and is passed to "
        "'external_dump', which the translator cannot see (it is not defined in this file): if "
        "'external_dump' reads 'u', add '!$translate update host(u)' before the call; if it "
        "writes 'u', add '!$translate update device(u)' after it [-Wstale-host-access]"]


def test_c_stale_read_through_calls(capsys, tmp_path: Path) -> None:
    rows = warnings_of(capsys, tmp_path, "st.c", C)
    assert rows == [
        "st.c:32:18: warning: the call of 'report' reads or writes 'u' on the host (in "
        "'output', line 15), which region 'step_k' (in 'step', called at line 30) last wrote "
        "on the device (data region at line 28): add '#pragma translate update host(u)' "
        "before this call [-Wstale-host-access]",
        "st.c:33:22: warning: 'u' is on the device (data region at line 28) and is passed to "
        "'external_dump', which the translator cannot see (it is not defined in this file): if "
        "'external_dump' reads 'u', add '#pragma translate update host(u)' before the call; if "
        "it writes 'u', add '#pragma translate update device(u)' after it "
        "[-Wstale-host-access]"]


@pytest.mark.parametrize("name, text, old, new", [
    ("st.f90", FORTRAN, "     call report(n, t, u)\n     call external_dump(n, u)\n",
     "     !$translate update host(u)\n     call report(n, t, u)\n"),
    ("st.c", C, "    report(n, t, u);\n    external_dump(n, u);\n",
     "#pragma translate update host(u[0:n])\n    report(n, t, u);\n"),
])
def test_update_host_before_the_call_silences(capsys, tmp_path: Path, name: str, text: str,
                                              old: str, new: str) -> None:
    assert old in text
    assert warnings_of(capsys, tmp_path, name, text.replace(old, new)) == []


HOST_WRITE = """\
subroutine fill(n, w)
  integer, intent(in) :: n
  real(8), intent(out) :: w(n)
  w = 1
end subroutine

subroutine scale(n, w)
  integer, intent(in) :: n
  real(8), intent(inout) :: w(n)
  integer :: i
  !$translate kernel scale_k
  do i = 1, n
     w(i) = 2*w(i)
  end do
  !$translate end kernel
end subroutine

subroutine run(n, u)
  integer, intent(in) :: n
  real(8), intent(inout) :: u(n)
  !$translate data copy(u)
  call fill(n, u)
  call scale(n, u)
  !$translate end data
end subroutine
"""


def test_host_write_in_a_callee_then_a_region_in_another(capsys, tmp_path: Path) -> None:
    rows = warnings_of(capsys, tmp_path, "hw.f90", HOST_WRITE)
    assert rows == [
        "hw.f90:22:16: warning: host code writes 'u', which is on the device (data region at "
        "line 21), and region 'scale_k' (in 'scale', called at line 23) uses it there without "
        "'!$translate update device(u)' between them [-Wstale-host-access]"]
