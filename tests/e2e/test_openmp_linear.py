"""OpenMP ``linear(j:step)`` on a variable other than the loop's index (h70 hunt): ``!$omp
simd linear(j:1)`` over ``j = j + 1; z(i) = y(i) + j``, and C ``#pragma omp parallel for
simd linear(k:2)``.  The clause was read as ``private``, so the loop was refused with a wrong
reason ("private variable 'j' is read after the loop: ... use lastprivate(j)", or "read
before it is written ...: use firstprivate(j)"), although OpenMP gives each iteration the
value before the loop plus its number times the step, and the last one's after the loop: the
sequential values.  Now the loop keeps its sequential meaning with a
``directive-sequential`` warning that says why; ``linear`` of the loop index is unchanged."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

C_PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
int main(void) {
  double z[40];
  int k = 3;
#pragma omp parallel for simd linear(k:2)
  for (int i = 0; i < 40; i++) {
    k += 2;
    z[i] = k * 0.5;
  }
  double s = 0;
#pragma omp simd linear(i) reduction(+:s)
  for (int i = 0; i < 40; i++)
    s += z[i];
  printf("%d %.17g\\n", k, s);
  return 0;
}
"""


def test_linear_variables_keep_the_sequential_meaning(tmp_path: Path) -> None:
    check_sample(REPO / "bench" / "h70_hunt" / "omp_more.f90", tmp_path)


def test_c_linear_warns_and_matches(tmp_path: Path) -> None:
    src = tmp_path / "lin.c"
    src.write_text(C_PROGRAM)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "o"), "--directives=openmp"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert ("lin.c:6:13: warning: '#pragma omp parallel for simd': linear(k): the translator "
            "does not give a linear variable its value from the iteration's number; the loop "
            "keeps its sequential meaning [-Wdirective-sequential]") in done.stderr
    assert "#pragma omp simd': linear" not in done.stderr   # linear(i): the loop's index
    check_sample(src, tmp_path)
