/* translate-test: translate=--directives=openmp */
/* Loop bounds compared in unsigned arithmetic: a signed counter against a size_t or
   unsigned bound converts the counter (a negative start never runs), n - 1u wraps at 0.
   (A constant negative start is refused: tests/e2e/test_unsigned_loop_bounds.py.) */
#include <stdio.h>
#include <stddef.h>
#define N 64
static double a[N + 8], b[N + 8];

static void neg_start(size_t n, int lo)
{
#pragma omp parallel for
  for (int i = lo; i < n; i++)
    a[i + 3] = i * 2.0;
}

static void neg_start_u(unsigned n, int lo)
{
#pragma omp parallel for
  for (int i = lo + 1; i <= n - 1; i++)
    b[i + 2] = i * 3.0;
}

static void wrap_bound(unsigned n)
{
#pragma omp parallel for
  for (unsigned i = 0; i < n - 1u; i++)
    if (i < N) b[i] += 1.0;
}

int main(void)
{
  for (int i = 0; i < N + 8; i++) { a[i] = -1; b[i] = -1; }
  neg_start(N, -3);
  neg_start_u(N, -3);
  neg_start(N - 10, 2);
  neg_start_u(N - 20, 1);
  wrap_bound(5);
  double s = 0;
  for (int i = 0; i < N + 8; i++) s += a[i] * (i + 1) + b[i] * (i + 2);
  printf("%.17g %g %g\n", s, a[0], b[0]);
  return 0;
}
