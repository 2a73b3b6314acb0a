"""What the loops around a region guarantee of their variables (h72).  LU factorisation
runs ``for (k = 0; k < N - 1; k++)`` on the host around ``parallel for (i = k + 1; i < N;
i++)`` with ``for (j = k + 1; j < N; j++) m[i*N + j] -= ...``: without knowing k >= 0 the
proof found ``j = -1`` (``m[i*N - 1]`` is row i - 1) and refused the claim ("iteration i=0,
j=-1 writes m[-1], iteration i=-1, j=95 writes m[-1]").  A canonical enclosing ``for`` over
a signed local that its body never assigns gives its constant bounds as assumptions; where
the body assigns the variable, nothing is assumed and the claim is refused as before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp rtol=1e-12 */
#include <stdio.h>
#define N 96
static double m[N * N];
int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) m[i * N + j] = (i == j) ? N + 1.0 : ((i * 7 + j * 3) % 11) * 0.1;
  for (int k = 0; k < N - 1; k++) {
#pragma omp parallel for
    for (int i = k + 1; i < N; i++)
      m[i * N + k] /= m[k * N + k];
#pragma omp parallel for
    for (int i = k + 1; i < N; i++)
      for (int j = k + 1; j < N; j++)
        m[i * N + j] -= m[i * N + k] * m[k * N + j];
  }
  double s = 0;
  for (int i = 0; i < N * N; i++) s += m[i] * (i % 13);
  printf("%a\\n", s);
  return 0;
}
"""


def test_lu_steps_inside_a_host_loop_run_in_parallel(tmp_path: Path):
    src = tmp_path / "lud.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    assert (tmp_path / "out" / "lud.cl").read_text().count("get_group_id") >= 2


def test_a_loop_variable_its_body_assigns_gives_no_assumption(tmp_path: Path):
    src = tmp_path / "lud.c"
    src.write_text(PROGRAM.replace("        m[i * N + j] -= m[i * N + k] * m[k * N + j];\n  }",
                                   "        m[i * N + j] -= m[i * N + k] * m[k * N + j];\n"
                                   "    if (m[0] < -1e300) k -= 2;\n  }"))
    proc = subprocess.run([sys.executable, "-m", "translator.cli", "--directives", "openmp",
                           str(src), "-o", str(tmp_path / "out")], cwd=REPO,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert "writes m[-1]" in proc.stderr
