"""Kernels with several exact min/max selections build in seconds on PoCL, without warnings.

Each selection (``if (a[i] < m) m = a[i]``) is an arg-reduction whose helper ends with the
last group's selection.  The helper used to return early in the other groups between two
barriers; PoCL copies the code after such a return once per path, so every further helper in
the kernel doubled it: 1, 2, 3, 4 selections compiled in 2, 6, 23, 94 s, seven did not finish
in ten minutes (the sums' helper, one a kernel, returned early too).  Now every group passes
every barrier (tens of seconds for six, here a time
limit of four minutes).  The printer also parenthesises comparisons inside ``&``/``|``: PoCL's
compiler printed "N warnings generated." on the translated program's stderr."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import build_original, build_translated, run, sample_options

C_SOURCE = r"""#include <math.h>
#include <stdio.h>

#define N 50001
static double a[N], b[N], c[N];

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = sin(0.37 * i);
        b[i] = cos(0.11 * i);
        c[i] = sin(1.3 * i) * cos(0.2 * i);
    }
    a[777] = NAN;
    double m1 = NAN, m2 = -1e30, m3 = 1e30, m4 = -1e30, m5 = 1e30, m6 = -1e30;
    int above = 0;
#pragma translate kernel extremes
    for (int i = 0; i < N; i++) {
        if (a[i] < m1) m1 = a[i];
        if (a[i] > m2) m2 = a[i];
        if (b[i] < m3) m3 = b[i];
        if (b[i] >= m4) m4 = b[i];
        m5 = c[i] <= m5 ? c[i] : m5;
        if (a[i] + c[i] > m6) m6 = a[i] + c[i];
        above += b[i] > 0.5;
    }
#pragma translate end kernel
    printf("%a %a %a %a %a %a %d\n", m1, m2, m3, m4, m5, m6, above);
    return 0;
}
"""

FORTRAN_SOURCE = """program extremes
  implicit none
  integer, parameter :: n = 40001
  double precision :: a(n), b(n), lo, hi, lob
  integer :: i
  do i = 1, n
    a(i) = sin(0.37d0 * i)
    b(i) = cos(0.11d0 * i)
  end do
  lo = 1d30
  hi = -1d30
  lob = 1d30
  !$translate kernel extremes
  do i = 1, n
    if (a(i) < lo) lo = a(i)
    if (a(i) > hi) hi = a(i)
    lob = merge(b(i), lob, b(i) <= lob)
  end do
  !$translate end kernel
  write (*, '(3z17)') lo, hi, lob
end program extremes
"""


@pytest.mark.parametrize("name, text", [("extremes.c", C_SOURCE), ("extremes.f90", FORTRAN_SOURCE)])
def test_several_selections_build_fast_and_quietly(tmp_path: Path, name: str,
                                                   text: str) -> None:
    src = tmp_path / name
    src.write_text(text)
    opts = sample_options(src)
    expected = run([str(build_original(src, tmp_path, opts))], tmp_path)
    translated = build_translated(src, tmp_path, opts)
    kernels = (tmp_path / "out" / "extremes.cl").read_text()
    assert kernels.count("_tr_argfinish_") >= 3   # the selections are arg-reductions
    assert ("_tr_finish_" in kernels) == name.endswith(".c")   # and the count a sum
    env = {**os.environ, "TRANSLATE_DEVICE": "cpu", "POCL_KERNEL_CACHE": "0",
           "TRANSLATE_CACHE_DIR": str(tmp_path / "cache")}
    proc = subprocess.run([str(translated)], check=False, cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
    assert "warning" not in proc.stderr, proc.stderr
