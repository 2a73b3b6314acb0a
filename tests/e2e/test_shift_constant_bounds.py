"""Shifts of integer constants are folded as C folds them (h72): ``#define N (1 << 12)`` as
a loop bound, as STREAM-like codes write their sizes, was refused ("unsupported bounds of
the loop over 'i' ...: non-affine expression 1 << 12"); also ``1L << 11``, an unsigned
``(1u << 31) >> 20``, and right shifts of negative constants (arithmetic, as gcc)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N (1 << 12)
#define M (1L << 11)
#define K ((1u << 31) >> 20)
static long a[N], b[M], c[K];
int main(void)
{
#pragma omp parallel for
  for (int i = 0; i < N; i++) a[i] = (long)i << 33 | (1 << 30) >> 3 | -64 >> 2;
#pragma omp parallel for
  for (long i = 0; i < M; i++) b[i] = i + (1L << 40) + (3u << 30) + (-1 >> 1);
#pragma omp parallel for
  for (unsigned i = 0; i < K; i++) c[i] = i * (0xffffffffu << 4);
  long s = 0;
  for (int i = 0; i < N; i++) s ^= a[i] + (i < M ? b[i] : 0) + (i < K ? c[i] : 0);
  printf("%ld\\n", s);
  return 0;
}
"""


def test_shifted_constants_as_loop_bounds(tmp_path: Path):
    src = tmp_path / "shifts.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    kernel = (tmp_path / "out" / "shifts.cl").read_text()
    assert kernel.count("__kernel") == 3
