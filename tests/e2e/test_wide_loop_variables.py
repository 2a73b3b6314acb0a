"""C loop variables wider than ``int`` keep their type in expressions (h72).  An iname is
an ``int``, so ``for (long i ...)`` with ``i + j`` or ``i * j * 100000000L`` computed the
sum and the product in 32 bits, ``size_t k`` times an unsigned constant wrapped at 2**32 and ``j - i`` of ``size_t``
values was negative:
exit 0 and other values (gcc ``-2.5123168094161749e+24 ...``, before
``6.0621457664257306e+17 ...``).  Now the variable is converted to its declared type;
subscripts and bounds drop the conversion, so the loops still map in parallel."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <stddef.h>
#define N 300
static double a[N][N], b[N * N];
static long c[N], g[10][10];
static unsigned long w[N];
static unsigned short us[N];
int main(void)
{
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) a[i][j] = (i * 7 + j * 3) % 11;
#pragma omp parallel for
  for (long i = 0; i < N; i++)
    for (long j = i; j < N; j++)
      b[i * N + j] = a[i][j] * (j - i) + (double)(i * j * 100000000L);
#pragma omp parallel for
  for (size_t k = N - 1; k >= 1; k--)
    c[k] = (long)(k - 2) * 3000000000L + (long)k;
#pragma omp parallel for
  for (size_t k = 0; k < N; k++)
    w[k] = k * 3000000000u + (k << 33);
#pragma omp parallel for
  for (unsigned i = 1; i < N; i++)
    us[i - 1] = (unsigned short)(i * 40000u + (i - 2));
#pragma omp parallel for
  for (size_t i = 0; i < N; i++) {
    double s = 0;
    for (size_t j = i / 2; j < i; j++) s += a[i][j] - (double)(j - i);
    b[i] += s;
  }
#pragma omp parallel for collapse(2)
  for (long i = 1500000000L; i < 1500000010L; i++)
    for (long j = 1600000000L; j < 1600000010L; j++)
      g[i - 1500000000L][j - 1600000000L] = i + j;
  double t = 0;
  long tc = 0;
  unsigned long tw = 0;
  unsigned tu = 0;
  for (int k = 0; k < N * N; k++) t += b[k] * (k % 13);
  for (int k = 0; k < N; k++) { tc ^= c[k]; tw ^= w[k]; tu = tu * 31 + us[k]; }
  for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) tc += g[i][j];
  printf("%.17g %ld %lu %u\\n", t, tc, tw, tu);
  return 0;
}
"""


def test_long_and_size_t_loop_variables_compute_in_their_type(tmp_path: Path):
    src = tmp_path / "wide.c"
    src.write_text(PROGRAM)
    expected = check_sample(src, tmp_path)
    assert expected.startswith("-2.5123168094161749e+24 ")
    kernel = (tmp_path / "out" / "wide.cl").read_text()
    assert kernel.count("get_group_id") >= 6     # every loop nest still parallel
