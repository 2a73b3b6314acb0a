"""Floating literals in C regions (h63 differential hunt).

- A `float` literal is rounded once from its digits, as gcc rounds it: the frontend went
  through a `double` first, so `1.0000000596046448f` (just above the midpoint between 1 and
  the next float) became 1 instead of 0x1.000002p+0: exit 0, other numbers.
- `<float.h>`'s double macros are long double literals in a cast (`DBL_EPSILON` is
  `((double)2.22044604925031308084726333618164062e-16L)` in gcc's headers): the loop was left
  as written with "long double literal ... is not supported".  A long double literal that a
  cast turns into `double` or `float` is now that value (rounded to x86-64's long double,
  then to the type, as gcc does); one used as a long double is still refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
#include <stdio.h>
#include <float.h>
#define N 16
static float f[N], g[N];
static double d[N], e[N], m[N], r[N];
int main(void)
{
#pragma translate kernel lits
  for (int i = 0; i < N; i++) {
    f[i] = 1.0000000596046448f * (i + 1);
    g[i] = (float)1.1L * (i + 1) + 0x1.000001p0f;
    d[i] = DBL_EPSILON * (i + 1) + FLT_EPSILON;
    e[i] = DBL_MAX / (i + 1);
    m[i] = DBL_MIN * (i + 1) + (double)0x1.8p-1074L + (float)1e-46L;
    r[i] = (double)1.1L * (i + 1);
  }
#pragma translate end kernel
  for (int i = 0; i < N; i += 5)
    printf("%a %a %a %a %a %a\\n", f[i], g[i], d[i], e[i], m[i], r[i]);
  return 0;
}
"""


LONG_DOUBLE = """\
void g(int n, double *restrict d)
{
#pragma translate kernel ld
  for (int i = 0; i < n; i++)
    d[i] = d[i] * 1.5L;
#pragma translate end kernel
}
"""


def test_float_and_float_h_literals_have_gccs_values(tmp_path: Path):
    src = tmp_path / "lits.c"
    src.write_text(PROGRAM)
    expected = check_sample(src, tmp_path)
    assert expected.split()[:6] == ["0x1.000002p+0", "0x1.0cccccp+1", "0x1.00000008p-23",
                                    "0x1.fffffffffffffp+1023", "0x1.0000000000002p-1022",
                                    "0x1.199999999999ap+0"]


def test_a_long_double_literal_in_arithmetic_is_still_refused(tmp_path: Path):
    src = tmp_path / "ld.c"
    src.write_text(LONG_DOUBLE)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1, proc.stderr
    assert (f"{src}:5:19: error: long double literal 1.5L is not supported: OpenCL C has no "
            "long double") in proc.stderr
