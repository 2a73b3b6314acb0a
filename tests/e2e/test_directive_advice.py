"""A refused OpenMP loop says what to change, as a refused mapping pragma does (h86): nw's
anti-diagonal under ``#pragma omp parallel for`` is refused because the rows of ``max_cols``
(changed after the loop, so no constant) are not proved; the message names the assumption
that proves them and where it goes (a translate region around the loop), and the program
written that way translates with ``--directives openmp,translate``, the loop in parallel,
and matches the original on the CPU OpenCL device."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.harness import REPO, TRANSLATE, check_sample

NW = """\
/* translate-test: translate=--directives=openmp,translate */
#include <stdio.h>
#define N 33
static int score[N * N], ref[N * N];
int main(void)
{
  int max_cols = N;
  for (int i = 0; i < N * N; i++) ref[i] = (i * 7 + 3) % 21 - 10;
  for (int i = 0; i < N; i++) { score[i] = -i; score[i * N] = -2 * i; }
  for (int d = 0; d < N - 2; d++) {
#pragma omp parallel for
    for (int idx = 0; idx <= d; idx++) {
      int index = (idx + 1) * max_cols + d - idx + 1;
      score[index] = score[index - 1 - max_cols] + ref[index] - score[index - 1];
    }
  }
  max_cols = 0;
  long s = 0;
  for (int i = 0; i < N * N; i++) s += (long)score[i] * (i % 7 + 1);
  printf("%ld %d %d\\n", s, score[N * N - 1], max_cols);
  return 0;
}
"""


def test_refused_openmp_loop_names_the_assumption_and_where_it_goes(tmp_path: Path) -> None:
    src = tmp_path / "nw.c"
    src.write_text(NW)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out"),
                           "--directives=openmp"], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert (f"{src}:11:13: error: '#pragma omp parallel for': the loop over idx is declared "
            "parallel, but mapping idx to g.0 may race") in proc.stderr, proc.stderr
    assert ("nw.c:14), for example when d=1; score is addressed by rows of max_cols "
            "elements, but 0 <= d - idx + 1 < max_cols is not proved (a row may reach into "
            "another); if d < max_cols - 1 holds, say so with assume(\"d < max_cols - 1\") "
            "in a '#pragma translate kernel' region around the loop (with --directives "
            "openmp,translate); if the iterations of idx "
            "really are independent, say so with independent(\"idx\") in that region; the "
            "loop keeps its sequential meaning [-Werror=directive-race]\n") in proc.stderr, \
        proc.stderr
    fixed = tmp_path / "nw_fixed.c"
    fixed.write_text(NW.replace(
        "#pragma omp parallel for\n",
        "#pragma translate kernel diagonal\n#pragma translate assume(\"d < max_cols - 1\")\n"
        "#pragma omp parallel for\n").replace(
        "    }\n  }\n  max_cols = 0;", "    }\n#pragma translate end kernel\n  }\n"
        "  max_cols = 0;"))
    report = tmp_path / "report.txt"
    check_sample(fixed, tmp_path, ("-Werror=sequential-region", f"--report={report}"))
    assert "idx_outer  g.0  legal" in report.read_text(), report.read_text()
