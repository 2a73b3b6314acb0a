"""OpenMP directives as input (issue 22): ``--directives openmp`` translates the loops the
directives declare parallel, proven under OpenMP's data-sharing rules, and the programs give
the original's results on PoCL.  Fortran and C, one program per directive family."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

FORTRAN_LOOPS = """\
! translate-test: rtol=1e-12 translate=--directives=openmp
subroutine scale(n, a, x, y, s, big)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  real(8), intent(out) :: s, big
  real(8) :: t
  integer :: i
  s = 0
  big = 0
  !$omp parallel do private(t) reduction(+:s) &
  !$omp& reduction(max:big) schedule(static)
  do i = 1, n
     t = a*x(i)
     y(i) = t + y(i)
     s = s + t
     big = max(big, abs(t))
  end do
  !$omp end parallel do
end subroutine

subroutine grid(n, m, u, v)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(n, m)
  real(8), intent(out) :: v(n, m)
  integer :: i, j
  !$omp target teams distribute parallel do collapse(2) map(to: u) map(from: v)
  do j = 2, m - 1
     do i = 2, n - 1
        v(i, j) = 0.25d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
     end do
  end do
end subroutine

subroutine counts(n, x, npos, flags)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  integer, intent(out) :: npos, flags
  integer :: i
  npos = 0
  flags = 0
  !$omp parallel do reduction(+:npos) reduction(max:flags) default(none) shared(n, x)
  do i = 1, n
     if (x(i) > 0) npos = npos + 1
     flags = max(flags, int(mod(i, 8)))
  end do
end subroutine

program main
  implicit none
  integer, parameter :: n = 1000, m = 37
  real(8) :: x(n), y(n), s, big, u(n, m), v(n, m)
  integer :: i, j, npos, flags
  do i = 1, n
     x(i) = sin(0.01d0*i)
     y(i) = cos(0.02d0*i)
  end do
  do j = 1, m
     do i = 1, n
        u(i, j) = 1.0d0/(i + j)
     end do
  end do
  v = 0
  call scale(n, 2.5d0, x, y, s, big)
  call grid(n, m, u, v)
  call counts(n, x, npos, flags)
  print '(3es24.15)', s, big, y(n/2)
  print '(2es24.15)', v(2, 2), sum(v)
  print *, npos, flags
end program
"""

C_LOOPS = """\
/* translate-test: rtol=1e-12 translate=--directives=openmp */
#include <math.h>
#include <stdio.h>
#define N 1000
#define M 37

void scale(int n, double a, const double *restrict x, double *restrict y, double *s,
           double *big)
{
    double t, acc = 0, hi = 0;
#pragma omp parallel for private(t) reduction(+:acc) reduction(max:hi) schedule(static)
    for (int i = 0; i < n; i++) {
        t = a * x[i];
        y[i] = t + y[i];
        acc += t;
        hi = fmax(hi, fabs(t));
    }
    *s = acc;
    *big = hi;
}

void grid(int n, int m, const double u[n][m], double v[n][m])
{
#pragma omp target teams distribute parallel for collapse(2) \\
        map(to: u[0:n][0:m]) map(from: v[0:n][0:m])
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < m - 1; j++)
            v[i][j] = 0.25 * (u[i-1][j] + u[i+1][j] + u[i][j-1] + u[i][j+1]);
}

int counts(int n, const double *x)
{
    int npos = 0;
#pragma omp parallel for reduction(+:npos) default(none) shared(n, x)
    for (int i = 0; i < n; i++) {
        int w = x[i] > 0;     /* declared in the loop: private */
        npos += w;
    }
    return npos;
}

int main(void)
{
    static double x[N], y[N], u[N][M], v[N][M];
    double s, big, sum = 0;
    for (int i = 0; i < N; i++) {
        x[i] = sin(0.01 * (i + 1));
        y[i] = cos(0.02 * (i + 1));
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            u[i][j] = 1.0 / (i + j + 2);
    scale(N, 2.5, x, y, &s, &big);
    grid(N, M, u, v);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            sum += v[i][j];
    printf("%.15e %.15e %.15e\\n", s, big, y[N / 2]);
    printf("%.15e %.15e\\n", v[1][1], sum);
    printf("%d\\n", counts(N, x));
    return 0;
}
"""


@pytest.mark.parametrize("name,text", [("loops.f90", FORTRAN_LOOPS), ("loops.c", C_LOOPS)])
def test_loop_directives_match_the_original(tmp_path: Path, name: str, text: str) -> None:
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)


ATOMIC_F = """\
! translate-test: translate=--directives=openmp
program at
  implicit none
  integer, parameter :: n = 200
  real(8) :: a(n), s
  integer :: i, h(4), k
  do i = 1, n
     a(i) = i
  end do
  s = 0
  h = 0
  !$omp parallel do
  do i = 1, n
     !$omp atomic
     s = s + a(i)
  end do
  !$omp parallel do
  do i = 1, n
     !$omp critical
     h(mod(i, 4) + 1) = h(mod(i, 4) + 1) + 1
     !$omp end critical
  end do
  print *, s, h
end program
"""

ATOMIC_C = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
int main(void)
{
    double a[200], s = 0;
    int h[4] = {0, 0, 0, 0};
    for (int i = 0; i < 200; i++)
        a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
#pragma omp atomic
        s += a[i];
    }
#pragma omp parallel for
    for (int i = 0; i < 200; i++) {
#pragma omp atomic
        h[i % 4] += 1;
    }
    printf("%g %d %d\\n", s, h[0], h[3]);
    return 0;
}
"""


@pytest.mark.parametrize("name,text", [("atomic.f90", ATOMIC_F), ("atomic.c", ATOMIC_C)])
def test_atomic_update_is_a_reduction_and_critical_stays(tmp_path: Path, name: str,
                                                         text: str) -> None:
    """An ``atomic`` update of a scalar inside a loop directive is a reduction (the loop is
    translated); a loop holding ``critical`` is left as written with its directives; one
    holding an atomic update of an array element is translated with that update atomic (h80:
    it was left as written before)."""
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / name).read_text()
    assert rewritten.count("translate_") >= 2   # the first loop became a call
    if name.endswith("f90"):
        assert "!$omp critical" in rewritten
    else:
        assert "#pragma omp atomic" not in rewritten
        assert "_tr_atomic_sum_int32(&h[" in (tmp_path / "out" / "atomic.cl").read_text()


DATA_F = """\
! translate-test: translate=--directives=openmp
module steps
contains
  subroutine step(n, u, t)
    integer, intent(in) :: n
    real(8), intent(inout) :: u(n), t(n)
    integer :: i
    !$omp target teams distribute parallel do
    do i = 2, n - 1
       t(i) = 0.5d0*(u(i-1) + u(i+1))
    end do
    !$omp end target teams distribute parallel do
    !$omp target teams distribute parallel do
    do i = 2, n - 1
       u(i) = t(i)
    end do
  end subroutine
end module

program main
  use steps
  implicit none
  integer, parameter :: n = 1000
  real(8) :: u(n), t(n)
  integer :: i, s
  do i = 1, n
     u(i) = mod(i, 10)*0.1d0
  end do
  !$omp target data map(tofrom: u) map(alloc: t)
  do s = 1, 20
     call step(n, u, t)
  end do
  !$omp target update from(u(1:n))
  print '(f16.12)', u(n/2)
  !$omp end target data
  !$omp target enter data map(to: u)
  !$omp target exit data map(from: u)
  print '(2f16.12)', u(2), u(n-1)
end program
"""

DATA_C = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 1000
static void step(int n, double *restrict u, double *restrict t)
{
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; i++)
        t[i] = 0.5 * (u[i - 1] + u[i + 1]);
#pragma omp target teams distribute parallel for
    for (int i = 1; i < n - 1; i++)
        u[i] = t[i];
}
int main(void)
{
    static double u[N], t[N];
    for (int i = 0; i < N; i++)
        u[i] = (i % 10) * 0.1;
#pragma omp target data map(tofrom: u[0:N]) map(alloc: t[0:N])
    {
        for (int s = 0; s < 20; s++)
            step(N, u, t);
#pragma omp target update from(u[0:N])
        printf("%.12f\\n", u[N / 2]);
    }
#pragma omp target enter data map(to: u[0:N])
#pragma omp target exit data map(from: u[0:N])
    printf("%.12f %.12f\\n", u[1], u[N - 2]);
    return 0;
}
"""


@pytest.mark.parametrize("name,text", [("data.f90", DATA_F), ("data.c", DATA_C)])
def test_target_data_directives_keep_arrays_on_the_device(tmp_path: Path, name: str,
                                                          text: str) -> None:
    """``target data`` (Fortran: to ``end target data``; C: the statement after it), ``target
    update from``, ``target enter/exit data`` with map types and sections: the data-region
    machinery: each directive becomes a data glue call, and the results match."""
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / name).read_text()
    for kind in ("data", "update", "end_data", "enter_data", "exit_data"):
        assert f"translate_data_{kind}_" in rewritten, kind


@pytest.mark.parametrize("name", ["data_timeloop.f90", "data_timeloop.c"])
def test_translate_check_reads_directives(name: str, tmp_path: Path) -> None:
    """``translate check --directives openmp``: every region execution of the OpenMP sample
    compared with the original's."""
    done = subprocess.run([sys.executable, "-m", "translator.cli", "check", "--directives",
                           "openmp", str(REPO / "samples" / "openmp" / name)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600, check=False,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"})
    assert done.returncode == 0, done.stderr
    assert ("translate check: all 100 region executions match (step_0 x50, step_1 x50)"
            in done.stderr + done.stdout)


PARALLEL_F = """\
! translate-test: translate=--directives=openmp
program p5
  implicit none
  integer, parameter :: n = 100
  real(8) :: a(n), b(n), c(n), s
  integer :: i
  do i = 1, n
     a(i) = i
  end do
  s = 0
  !$omp parallel private(i) reduction(+:s)
  !$omp do
  do i = 1, n
     b(i) = 2*a(i)
  end do
  !$omp end do
  !$omp do
  do i = 2, n
     c(i) = b(i-1) + a(i)
     s = s + c(i)
  end do
  !$omp end parallel
  print *, s, c(n)
end program
"""

PARALLEL_C = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 100
int main(void)
{
    static double a[N], b[N], c[N];
    double s = 0;
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma omp parallel reduction(+:s)
    {
#pragma omp for
        for (int i = 0; i < N; i++)
            b[i] = 2 * a[i];
#pragma omp for
        for (int i = 1; i < N; i++) {
            c[i] = b[i - 1] + a[i];
            s += c[i];
        }
    }
    printf("%g %g\\n", s, c[N - 1]);
#pragma omp parallel
    {
        printf("hello\\n");
#pragma omp for
        for (int i = 0; i < N; i++)
            b[i] = 0;
    }
    return 0;
}
"""


@pytest.mark.parametrize("name,text", [("par.f90", PARALLEL_F), ("par.c", PARALLEL_C)])
def test_parallel_construct_with_worksharing_loops(tmp_path: Path, name: str, text: str) -> None:
    """A ``parallel`` construct holding ``do``/``for`` loops (the second reading what the first
    wrote) is one region running the loops in order, with the construct's ``reduction``
    inherited; a ``parallel`` construct holding other code stays as written with its loops."""
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / name).read_text()
    assert "omp end do" not in rewritten and rewritten.count("#pragma omp for\n") <= 1
    if name.endswith(".c"):
        assert '#pragma omp parallel\n    {\n        printf("hello\\n");' in rewritten


def test_fixed_form_sentinels_and_continuation(tmp_path: Path) -> None:
    """``c$omp`` in column 1 and a ``c$omp&`` continuation line (fixed form)."""
    src = tmp_path / "fx.f"
    src.write_text(FIXED)
    check_sample(src, tmp_path)
    assert "c$omp" not in (tmp_path / "out" / "fx.f").read_text()


FIXED = """\
c translate-test: translate=--directives=openmp
      subroutine s(n, a)
      integer n, i
      double precision a(n), t
c$omp parallel do
c$omp& private(t)
      do 10 i = 1, n
         t = a(i)
         a(i) = 2*t
   10 continue
c$omp end parallel do
      end
      program main
      double precision a(100)
      integer i
      do 20 i = 1, 100
         a(i) = i
   20 continue
      call s(100, a)
      print *, a(1), a(100)
      end
"""
