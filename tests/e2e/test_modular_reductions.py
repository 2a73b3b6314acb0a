"""Reductions whose updates C computes through conversions between signed and unsigned
integers (h72).  ``int s; s += u[i]`` with unsigned terms adds in unsigned and converts back:
a sum modulo 2**32, reduced in parallel now (before: refused with "mapping i to g.0 races:
... writes s[0]" although the clause names it).  ``int m; if (u[i] > m) m = u[i]`` compares
in unsigned, where negative values are the largest: before, it was reduced as a maximum of
ints (exit 0, 2147101004 where gcc prints -765288); now it is refused with what to write,
as is a comparison in 64 bits stored into an int."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 5000
static unsigned u[N];
static unsigned long long ul[N];
static int a[N];
int main(void)
{
  for (int i = 0; i < N; i++) {
    u[i] = (unsigned)i * 2654435761u;
    ul[i] = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
    a[i] = (int)(u[i] >> 1) - 1000000000;
  }
  int s = 7, d = -3, p = 1, m = 0;
  long long ls = 5;
  unsigned um = 0;
#pragma omp parallel for reduction(+:s, d, ls)
  for (int i = 0; i < N; i++) {
    s += u[i];
    d -= u[i];
    ls += ul[i];
  }
#pragma omp parallel for reduction(*:p)
  for (int i = 0; i < N; i++)
    p *= (u[i] | 1u);
#pragma omp parallel for reduction(max:m)
  for (int i = 0; i < N; i++)
    if ((int)u[i] > m) m = u[i];
#pragma omp parallel for reduction(max:um)
  for (int i = 0; i < N; i++)
    if (a[i] > um) um = a[i];
  printf("%d %d %lld %d %d %u\\n", s, d, ls, p, m, um);
  return 0;
}
"""

UNSIGNED_ORDER = """\
/* translate-test: translate=--directives=openmp translate=-Wno-error=directive-race */
#include <stdio.h>
#define N 5000
static unsigned u[N];
int main(void)
{
  for (int i = 0; i < N; i++) u[i] = (unsigned)i * 2654435761u;
  int m = 0, k = 0;
#pragma omp parallel for reduction(max:m)
  for (int i = 0; i < N; i++)
    if (u[i] > m) m = u[i];
#pragma omp parallel for reduction(max:k)
  for (int i = 0; i < N; i++)
    k = (u[i] > k) ? u[i] : k;
  printf("%d %d\\n", m, k);
  return 0;
}
"""

NARROWED = """\
void f(int n, const long *restrict big, int *restrict out)
{
  int k = 0;
#pragma omp parallel for reduction(min:k)
  for (int i = 0; i < n; i++)
    if (big[i] < k) k = big[i];
  out[0] = k;
}
"""

ORDER = ("the loop compares and stores values of different types ({}), which order them "
         "differently, so it takes no {}imum of either type: accumulate into a variable of "
         "the comparison's type and convert it after the loop, or convert the term to the "
         "accumulator's type in the comparison")


def _translate(src: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", "--directives", "openmp",
                           *extra, str(src), "-o", str(out)], cwd=REPO,
                          capture_output=True, text=True, check=False)


def test_sums_of_unsigned_terms_into_signed_accumulators_run_in_parallel(tmp_path: Path):
    src = tmp_path / "modsum.c"
    src.write_text(PROGRAM)
    assert check_sample(src, tmp_path) == (
        "-1075130973 1075130977 -4161552058469502575 1217935505 2147101004 4294554535\n")
    kernel = (tmp_path / "out" / "modsum.cl").read_text()
    assert "for (int i = 0; i < 5000" not in kernel      # no loop left sequential


def test_maximum_compared_in_unsigned_keeps_the_sequential_meaning(tmp_path: Path):
    src = tmp_path / "umax.c"
    src.write_text(UNSIGNED_ORDER)
    assert check_sample(src, tmp_path) == "-765288 -765288\n"
    proc = _translate(src, tmp_path / "out2")
    assert proc.returncode == 1
    why = ORDER.format("signed 32-bit integers converted to unsigned 32-bit integers", "max")
    for line, name in ((9, "m"), (12, "k")):
        assert (f"{src}:{line}:13: error: '#pragma omp parallel for': reduction(max:{name}): "
                f"{why}; the loop keeps its sequential meaning") in proc.stderr


def test_minimum_compared_in_64_bits_into_an_int_is_refused(tmp_path: Path):
    src = tmp_path / "narrow.c"
    src.write_text(NARROWED)
    proc = _translate(src, tmp_path / "out")
    assert proc.returncode == 1
    why = ORDER.format("signed 64-bit integers converted to signed 32-bit integers", "min")
    assert (f"{src}:4:13: error: '#pragma omp parallel for': reduction(min:k): {why}; "
            "the loop keeps its sequential meaning") in proc.stderr
