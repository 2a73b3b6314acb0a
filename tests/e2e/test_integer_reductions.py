"""Reduction clauses on integer variables whose updates C computes in a wider type (h63
differential hunt).  ``int m; m = fmax(m, a[i])`` is ``m = cast(int32, max(cast(float64, m),
cast(float64, a[i])))``: the maximum of the integers themselves, reduced in parallel now
(before: refused, "mapping i to g.0 races: ... writes imax[0]", although the clause names
it).  Updates with no parallel reduction on the device are refused with what to write: a
sum into a `short` or `unsigned char` (the device has no atomic updates narrower than 32
bits; before, the same race message), and an integer maximum of floating-point terms
(``fmax(m, x[i] * 0.5)``: converting at each update has no exact reduction)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <math.h>
#define N 1000
static int a[N];
int main(void)
{
  for (int i = 0; i < N; i++) a[i] = (i * 7919) % 3001 - 1500;
  int imax = -100000, imin = 3;
  unsigned um = 0;
#pragma omp parallel for reduction(max:imax, um) reduction(min:imin)
  for (int i = 0; i < N; i++) {
    imax = fmax(imax, a[i]);
    imin = fmin(imin, a[i] / 3);
    um = fmax(um, (unsigned)a[i] >> 4);
  }
  printf("%d %d %u\\n", imax, imin, um);
  return 0;
}
"""

REFUSED = """\
#include <math.h>
void f(int n, const int *restrict a, const double *restrict x, int *restrict out)
{
  short ssum = 0;
  unsigned char csum = 0;
  int m = 0;
#pragma omp parallel for reduction(+:ssum)
  for (int i = 0; i < n; i++)
    ssum += a[i] * 3;
#pragma omp parallel for reduction(+:csum)
  for (int i = 0; i < n; i++)
    csum += a[i];
#pragma omp parallel for reduction(max:m)
  for (int i = 0; i < n; i++)
    m = fmax(m, x[i] * 0.5);
  out[0] = ssum + csum + m;
}
"""


def test_integer_maximum_through_fmax_runs_in_parallel(tmp_path: Path):
    src = tmp_path / "imax.c"
    src.write_text(PROGRAM)
    assert check_sample(src, tmp_path) == "1499 -500 268435455\n"
    kernel = (tmp_path / "out" / "imax.cl").read_text()
    assert "_tr_finish_max_int32_min_int32_max_uint32" in kernel


def test_reductions_with_no_parallel_form_say_what_to_write(tmp_path: Path):
    src = tmp_path / "narrow.c"
    src.write_text(REFUSED)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", "--directives", "openmp",
                           str(src), "-o", str(tmp_path / "out")], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1, proc.stderr
    store = "accumulate into an int and store that after the loop"
    assert (f"{src}:7:13: error: '#pragma omp parallel for': reduction(+:ssum): a reduction "
            "into a 16-bit integer is not supported on the device (its atomic updates are of "
            f"32- and 64-bit integers and floats): {store}") in proc.stderr
    assert (f"{src}:10:13: error: '#pragma omp parallel for': reduction(+:csum): a reduction "
            "into an 8-bit unsigned integer is not supported") in proc.stderr
    assert (f"{src}:13:13: error: '#pragma omp parallel for': reduction(max:m): the loop takes "
            "the maximum in floating point and converts it to an integer at each update: a "
            "reduction of it is supported where the terms are integers or the accumulator is "
            "floating-point") in proc.stderr
