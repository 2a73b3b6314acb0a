"""Local arrays with a braced initialiser inside a region (h72): XSBench's ``double
macro_xs[5] = {0}``, stencils' weight tables ``const double w[3] = {0.25, 0.5, 0.25}``,
nested lists for two dimensions, values read from arrays and loop variables; the elements
the list leaves out are zero, as in C.  Before, every such loop was left as written
("initialiser of the local array 'm' inside a region"); now it runs in parallel with gcc's
results.  Forms with no translation (designated initialisers, more values than elements, a
list without the inner braces) are refused at the declaration with what to write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 700
static double a[N], out[N][4];
static int q[N];
int main(void)
{
  for (int i = 0; i < N; i++) a[i] = (i % 23) * 0.5 - 3.0;
#pragma omp parallel for
  for (int i = 1; i < N - 1; i++) {
    double m[4] = {0};
    const double w[3] = {0.25, 0.5, 0.25};
    int c[2][3] = {{i, -i}, {i % 7}};
    float f[3] = {a[i], (float)i / 3};
    for (int k = 0; k < 3; k++)
      m[k] += w[k] * a[i - 1 + k] + c[k / 2][k] + f[k];
    m[3] = c[1][0] + c[1][2] + c[0][2];
    for (int k = 0; k < 4; k++) out[i][k] = m[k];
    q[i] = c[0][1] + c[1][1];
  }
  double s = 0;
  long t = 0;
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 4; k++) s += out[i][k] * (k + 1);
    t += q[i];
  }
  printf("%a %ld\\n", s, t);
  return 0;
}
"""


def test_local_arrays_with_initialiser_lists(tmp_path: Path):
    src = tmp_path / "inits.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    assert "get_group_id" in (tmp_path / "out" / "inits.cl").read_text()


@pytest.mark.parametrize("decl, why", [
    ("double m[3] = {[1] = 2.0};", "designated initialisers are not supported"),
    ("double m[2] = {1.0, 2.0, 3.0};", "3 values for 2 elements"),
    ("double m[2][2] = {1.0, 2.0, 3.0};",
     "only braced lists, one pair of braces per dimension"),
])
def test_initialisers_without_translation_say_what_to_write(tmp_path: Path, decl: str,
                                                            why: str):
    src = tmp_path / "bad.c"
    src.write_text("void f(int n, double *restrict a)\n{\n#pragma omp parallel for\n"
                   f"  for (int i = 0; i < n; i++) {{\n    {decl}\n    a[i] = m[1] * i;\n"
                   "  }\n}\n")
    proc = subprocess.run([sys.executable, "-m", "translator.cli", "--directives", "openmp",
                           str(src), "-o", str(tmp_path / "out")], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert (f"{src}:3:13: warning: '#pragma omp parallel for' left as written: initialiser "
            f"of the local array 'm' inside a region: {why}; assign its elements in "
            "statements instead (line 5)") in proc.stderr, proc.stderr
