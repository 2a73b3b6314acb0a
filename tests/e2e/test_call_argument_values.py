"""A scalar argument is the value it has at the call, also when the callee changes what the
argument reads (h56 differential hunt).  The inliner bound a scalar parameter the callee never
assigns to the argument's expression itself, so ``a[i] = f(g)`` with ``f`` incrementing the
global ``g`` (directly or through another function) before reading its parameter, or
``fp(&m, m)`` writing ``m`` through the pointer first, read the new value: exit 0, other
numbers ("6 76 85 3 384 2 28 27 97" became "16 86 85 4 512 28 28 27 97").  Now such an
argument is evaluated into the callee's private copy at the call; an argument reading only
what the call leaves alone is still the expression (a callee's own locals and loop variables
do not count).  A pointer argument whose offset reads a scalar the callee changes is refused
with what to write instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
#include <stdio.h>
static int g = 5, g2 = 1, kk = 2;
static double acc = 1.0;
static void bump(void) { g += 10; }
static int f(int x) { bump(); return x + 1; }
static int fp(int *p, int x) { *p = 7; return x * 2; }
static int loc(int x) { int g = 3; g++; for (int kk = 0; kk < 2; kk++) x += kk; return x + g; }
static double h(double y) { acc = acc * 2.0; return y + acc; }
static int a[8], c[8], d[8];
static double b[8];
int main(void)
{
#pragma translate kernel k
  for (int i = 0; i < 8; i++) {
    int m = i;
    a[i] = f(g);
    b[i] = h(acc);
    c[i] = fp(&g2, g2) + fp(&m, m);
    d[i] = loc(g) + loc(kk);
  }
#pragma translate end kernel
  printf("%d %d %d %.17g %.17g %d %d %d %d\\n", a[0], a[7], g, b[0], b[7], c[0], c[7], d[0],
         d[7]);
  return 0;
}
"""

MOVING_VIEW = """\
static int k = 0;
static double first(double *p) { k = k + 1; return p[0]; }
void f(int n, double *restrict a, double *restrict b)
{
#pragma translate kernel mv
  for (int i = 0; i < n; i++)
    b[i] = first(a + k);
#pragma translate end kernel
}
"""


def test_scalar_arguments_keep_their_value_at_the_call(tmp_path: Path):
    src = tmp_path / "args.c"
    src.write_text(PROGRAM)
    assert check_sample(src, tmp_path) == "6 76 85 3 384 2 28 27 97\n"
    kernel = (tmp_path / "out" / "args.cl").read_text()
    assert "_tr_f_x = g[0];" in kernel and "_tr_h_y = acc[0];" in kernel   # copies at the call


def test_pointer_argument_whose_offset_the_call_changes_is_refused(tmp_path: Path):
    src = tmp_path / "moving.c"
    src.write_text(MOVING_VIEW)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1, proc.stderr
    assert (f"{src}:7:12: error: function 'first' changes 'k', which the argument of pointer "
            "parameter 'p' reads: compute the offset into a variable the call does not change "
            "before the call") in proc.stderr
