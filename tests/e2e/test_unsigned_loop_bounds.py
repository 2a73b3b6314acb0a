"""A signed loop variable compared with an unsigned bound (h63 differential hunt): C
converts the variable, so ``for (int i = lo; i < n; i++)`` with a ``size_t`` or ``unsigned``
``n`` runs no iteration when ``lo`` is negative (-3 becomes a large number).  The region's
domain was ``lo <= i < n`` and ran ``n + 3`` iterations: exit 0, other numbers.  Now such a
loop's domain also requires ``lo >= 0``; a constant negative start is refused with what to
write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
#include <stdio.h>
#include <stddef.h>
#define N 40
static double a[N + 8], b[N + 8];
static void from(size_t n, int lo)
{
#pragma translate kernel from_k
  for (int i = lo; i < n; i++)
    a[i + 3] = i * 2.0;
#pragma translate end kernel
}
static void upto(unsigned n, int lo)
{
#pragma translate kernel upto_k
  for (int i = lo + 1; i <= n - 1; i += 2)
    b[i + 2] = i * 3.0;
#pragma translate end kernel
}
int main(void)
{
  for (int i = 0; i < N + 8; i++) { a[i] = -1; b[i] = -1; }
  from(N, -3);
  upto(N, -3);
  from(N - 10, 2);
  upto(N - 20, 1);
  double s = 0;
  for (int i = 0; i < N + 8; i++) s += a[i] * (i + 1) + b[i] * (i + 2);
  printf("%.17g %g %g %g\\n", s, a[0], a[6], b[5]);
  return 0;
}
"""

CONSTANT = """\
void f(unsigned long n, double *restrict a)
{
#pragma translate kernel k
  for (int i = -3; i < n; i++)
    a[i + 3] = 1.0;
#pragma translate end kernel
}
"""


def test_negative_start_against_unsigned_bound_runs_no_iteration(tmp_path: Path):
    src = tmp_path / "ubounds.c"
    src.write_text(PROGRAM)
    assert check_sample(src, tmp_path).split()[1:] == ["-1", "6", "-1"]


def test_constant_negative_start_against_unsigned_bound_is_refused(tmp_path: Path):
    src = tmp_path / "neg.c"
    src.write_text(CONSTANT)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1, proc.stderr
    assert (f"{src}:4:24: error: the condition 'i < n' compares in unsigned arithmetic (the "
            "bound is unsigned and 'i' is signed), so the start -3 converts to a large number "
            "and the loop runs no iteration in C: convert the bound to a signed type "
            "((long)n) or start at 0") in proc.stderr
