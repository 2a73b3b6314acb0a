"""Unsigned sizes (``size_t n``, ``unsigned k``) as loop bounds of a region (h72).  The
kernel computes its loop bounds and tile tests from them (``j <= k - 1``, ``256*g < n -
255``); declared ``ulong`` in the kernel, those wrapped where the size is small: with
``k = 0`` the inner loop ran over all memory (SIGSEGV), and a ``parallel for`` pair of
PolyBench's mvt with ``n = 50`` took its guard-free copy, -nan.  Now unsigned value
arguments are passed as 64-bit signed integers and the statements read them converted back
to their type, so C's unsigned arithmetic in the loop body is kept (``n - i - 100`` wraps)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <stddef.h>
static double x[100], m[100 * 100], x1[64], x2[64];
static unsigned w[100];
static void f(size_t n, size_t k, double *restrict a, const double *restrict b)
{
#pragma omp parallel for
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < k; j++) a[i] += b[i * k + j];
}
static void g(unsigned n, unsigned *restrict r)
{
#pragma omp parallel for
  for (int i = 0; i < 60; i++)
    r[i] = i < n ? n - i - 100 : n * 3u;
}
static void mvt(size_t n, double *restrict p, double *restrict q, const double *restrict y,
                const double (*restrict a)[n])
{
#pragma omp parallel
  {
#pragma omp for nowait
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) p[i] = p[i] + a[i][j] * y[j];
#pragma omp for
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) q[i] = q[i] + a[j][i] * y[j];
  }
}
int main(void)
{
  for (int i = 0; i < 100 * 100; i++) m[i] = i % 7;
  f(40, 0, x, m);
  f(20, 30, x, m);
  f(3, 2, x, m);
  g(50u, w);
  for (int i = 0; i < 64; i++) { x1[i] = i * 0.5; x2[i] = 1.0 - i * 0.01; }
  mvt(50, x1, x2, m, (const double (*)[50])m);
  double s = 0;
  unsigned long t = 0;
  for (int i = 0; i < 100; i++) { s += x[i] * (i + 1); t = t * 31 + w[i]; }
  for (int i = 0; i < 64; i++) s += x1[i] + x2[i] * 3;
  printf("%a %lu\\n", s, t);
  return 0;
}
"""


def test_small_unsigned_sizes_bound_the_loops(tmp_path: Path):
    src = tmp_path / "sizes.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
