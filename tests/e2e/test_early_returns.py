"""C helpers that return early from ``if`` statements are inlined (h72): clamps, limiters
and classifiers as codes write them (``if (x < lo) return lo; if (x > hi) return hi; return
x;``), nested ifs, if/else both returning, ``return;`` in a void helper, declarations after
an early return.  Before, every such loop was left as written ("function 'piece' cannot be
offloaded: it returns before its end"); now the returns become if/else branches and the
loops run in parallel, with gcc's results.  A return inside a loop is still refused
(tests/e2e/test_inlined_calls.py)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
/* early returns in helpers: nested ifs, if/else both returning, a void helper that stops
   early, declarations after an early return, a helper called twice in one statement */
#include <math.h>
#include <stdio.h>
#define N 1500
static double a[N], b[N], c[N];
static int k[N];
static inline double piece(double x)
{
  if (x < -1.0) {
    if (x < -5.0)
      return -5.0;
    double y = x * 0.5;
    return y - 0.5;
  } else if (x > 2.0) {
    return 2.0 + log(x - 1.0);
  }
  double z = x * x;
  if (z > 1.0)
    return z;
  return x;
}
static inline int bucket(int v)
{
  if (v < 0) return -1;
  else return v % 10 == 0 ? 100 : v / 10;
}
static void stop_early(double *p, int i)
{
  if (p[i] < 0.0)
    return;
  p[i] = sqrt(p[i]);
  if (p[i] > 3.0) return;
  p[i] += 1.0;
}
int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = (i - 700) * 0.013; c[i] = (i % 37) - 9.5; }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    b[i] = piece(a[i]) + piece(-a[i]) * 0.5;
    k[i] = bucket(i - 300) + bucket(i % 41);
    stop_early(c, i);
  }
  double s = 0;
  long t = 0;
  for (int i = 0; i < N; i++) { s += b[i] * (i % 3) + c[i]; t = t * 5 + k[i]; }
  printf("%a %a %ld\\n", s, b[3], t);
  return 0;
}
"""


def test_helpers_with_early_returns_are_inlined(tmp_path: Path):
    src = tmp_path / "returns.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    kernel = (tmp_path / "out" / "returns.cl").read_text()
    assert "get_group_id" in kernel
