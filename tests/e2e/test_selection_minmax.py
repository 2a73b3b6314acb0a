"""Floating-point minima and maxima written as selections keep the source's bits in parallel.

``if (v < m) m = v`` and ``m = v < m ? v : m`` (Fortran: ``if (v < m) m = v``,
``merge(v, m, v < m)``) never take a NaN term, keep a NaN initial value and keep the first
(``<``) or last (``<=``) of 0.0 and -0.0: a reduction tree of fmin/fmax got the NaN initial
value (fmin(NaN, x) is x) and the sign of zero wrong, exit 0.  They are now reduced like
arg-minima without a location (`translator.analysis.arg_reductions`).  ``m = m < v ? m : v``
(C's ``MIN`` macro) takes NaN terms, so the automatic mapping keeps it sequential unless the
user consents (``reassociate``); with consent it runs in parallel.  Results on PoCL against
gcc/gfortran, printed with every bit (hex)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

C_SOURCE = r"""#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>

#define N 70001
static void show(const char *what, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    printf("%s %016llx\n", what, (unsigned long long)bits);
}

static void reduce(const double *restrict a, double init, const char *label)
{
    double m1 = init, m2 = init, m3 = init, m4 = init, m5 = init;
    float f1 = (float)init;
    /* a few reductions per kernel: PoCL's compile time grows fast with their barriers */
#pragma translate kernel strict_less
    for (int i = 0; i < N; i++) {
        if (a[i] < m1) m1 = a[i];
        m2 = a[i] < m2 ? a[i] : m2;
    }
#pragma translate end kernel
#pragma translate kernel less_equal
    for (int i = 0; i < N; i++)
        m3 = a[i] <= m3 ? a[i] : m3;
#pragma translate end kernel
#pragma translate kernel greater
    for (int i = 0; i < N; i++) {
        if (m4 < a[i]) m4 = a[i];
        m5 = a[i] >= m5 ? a[i] : m5;
    }
#pragma translate end kernel
#pragma translate kernel single
    for (int i = 0; i < N; i++)
        f1 = (float)a[i] < f1 ? (float)a[i] : f1;
#pragma translate end kernel
    printf("%s\n", label);
    show("if<", m1); show("?<", m2); show("?<=", m3); show("if>", m4); show("?>=", m5);
    show("float", (double)f1);
}

int main(void)
{
    static double a[N];
    for (int i = 0; i < N; i++)
        a[i] = 1.0 + (i % 977);
    reduce(a, NAN, "nan start");
    reduce(a, 0.5, "no term below the start");
    /* zeros of both signs at the minimum, -0.0 first, +0.0 last, a NaN term among them */
    for (int i = 0; i < N; i++)
        a[i] = (i % 13 == 5) ? -0.0 : (i % 17 == 3) ? 0.0 : 2.0 + (i % 31);
    a[0] = 0.0;
    a[N - 1] = -0.0;
    a[40000] = NAN;
    reduce(a, 1e300, "signed zeros");
    reduce(a, 0.0, "start at +0.0");
    for (int i = 0; i < N; i++)
        a[i] = -(double)(i % 1009) - ((i % 2) ? 0.0 : -0.0);
    a[12345] = NAN;
    reduce(a, -1e300, "maxima side");
    return 0;
}
"""

F_SOURCE = """program selections
  use, intrinsic :: ieee_arithmetic
  implicit none
  integer, parameter :: n = 50003
  real(8) :: a(n)
  integer :: i
  do i = 1, n
    a(i) = 1.0d0 + mod(i, 977)
  end do
  call reduce(a, ieee_value(1.0d0, ieee_quiet_nan), 'nan start')
  do i = 1, n
    a(i) = 2.0d0 + mod(i, 31)
    if (mod(i, 13) == 5) a(i) = -0.0d0
    if (mod(i, 17) == 3) a(i) = 0.0d0
  end do
  a(1) = 0.0d0
  a(n) = -0.0d0
  a(30000) = ieee_value(1.0d0, ieee_quiet_nan)
  call reduce(a, 1.0d300, 'signed zeros')
  call reduce(a, 0.0d0, 'start at +0.0')
contains
  subroutine reduce(a, init, label)
    real(8), intent(in) :: a(n), init
    character(*), intent(in) :: label
    real(8) :: m1, m2, m3
    integer :: i
    m1 = init
    m2 = init
    m3 = init
    !$translate kernel fsel
    do i = 1, n
      if (a(i) < m1) m1 = a(i)
      m2 = merge(a(i), m2, a(i) <= m2)
    end do
    !$translate end kernel
    !$translate kernel fsel_max
    do i = 1, n
      if (a(i) >= m3) m3 = a(i)
    end do
    !$translate end kernel
    write (*, '(a)') label
    write (*, '(3(z16.16, 1x))') m1, m2, m3
  end subroutine
end program
"""

MACRO_SOURCE = r"""#include <stdio.h>
#include <math.h>
#define N 5000
#define MIN(a, b) ((a) < (b) ? (a) : (b))
int main(void)
{
    static double a[N];
    double m = 1e300;
    for (int i = 0; i < N; i++)
        a[i] = 3.0 + (i % 101);
#pragma translate kernel macro_min
    for (int i = 0; i < N; i++)
        m = MIN(m, a[i]);
#pragma translate end kernel
    printf("%.17g\n", m);
    return 0;
}
"""


def _report(src: Path, tmp: Path, *extra: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp / "report"), "--report=-",
                           *extra], cwd=REPO, capture_output=True, text=True, timeout=300,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.mark.parametrize("language", ["c", "fortran"])
def test_selections_run_in_parallel_bit_for_bit(tmp_path: Path, language: str) -> None:
    src = tmp_path / ("sel.c" if language == "c" else "sel.f90")
    src.write_text(C_SOURCE if language == "c" else F_SOURCE)
    proc = _report(src, tmp_path)
    assert "runs as a single work item" not in proc.stderr, proc.stderr
    assert "as the source selects it" in proc.stdout, proc.stdout
    out = check_sample(src, tmp_path).lower()
    # the runs compared hold what the reductions are about
    assert "7ff8000000000000" in out or "fff8000000000000" in out, out   # the NaN start kept
    assert "8000000000000000" in out and "0000000000000000" in out, out   # both zeros


def test_min_macro_needs_consent_and_runs_with_it(tmp_path: Path) -> None:
    src = tmp_path / "macro.c"
    src.write_text(MACRO_SOURCE)
    proc = _report(src, tmp_path)
    assert "macro.c:11:19: warning: region macro_min runs as a single work item" \
        in proc.stderr, proc.stderr
    assert "may keep another NaN or zero" in proc.stderr, proc.stderr
    assert "set_options(reassociate=True)" in proc.stderr, proc.stderr
    consented = _report(src, tmp_path, "--reassociate")
    assert "runs as a single work item" not in consented.stderr, consented.stderr
    assert check_sample(src, tmp_path, ("--reassociate",)).strip() == "3"


NEST_SOURCES = {
    "c": """void f(int n, const double a[restrict n][n], double *restrict m)
{
#pragma translate kernel nest
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      m[0] = m[0] < a[i][j] ? m[0] : a[i][j];
#pragma translate end kernel
}
""",
    "fortran": """subroutine g(n, a, m)
  integer :: n, i, j
  real(8) :: a(n, n), m
  !$translate kernel nest
  do j = 1, n
    do i = 1, n
      m = merge(m, a(i, j), m < a(i, j))
    end do
  end do
  !$translate end kernel
end subroutine
""",
}


@pytest.mark.parametrize("language", sorted(NEST_SOURCES))
def test_nest_of_a_nan_taking_selection_needs_consent_too(tmp_path: Path, language: str) -> None:
    """The 2-D group reduction (both loops of a nest on the hardware) asks the same consent
    as the one-loop mapping: before, it took ``m < v ? m : v`` without it."""
    src = tmp_path / ("nest.c" if language == "c" else "nest.f90")
    src.write_text(NEST_SOURCES[language])
    proc = _report(src, tmp_path)
    where = {"c": "nest.c:3:19", "fortran": "nest.f90:4:3"}[language]
    assert f"{where}: warning: region nest runs as a single work item" in proc.stderr, \
        proc.stderr
    assert "may keep another NaN or zero" in proc.stderr, proc.stderr
    assert "2-D group reduction" not in proc.stdout, proc.stdout
    consented = _report(src, tmp_path, "--reassociate")
    assert "runs as a single work item" not in consented.stderr, consented.stderr
    assert "chosen by: 2-D group reduction" in consented.stdout, consented.stdout
