/* translate-test: translate=--directives=openmp,openacc */
#include <stddef.h>
#include <stdio.h>
#define N 300
#define M 8
static double a[N], b[N], c[N], w[M];

static void scale(int n, const double *restrict x, double *restrict y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i] + 1.0;
}

/* the stencil's start -1 meets an unsigned width: C runs no j iteration */
static void smooth(int n, size_t m, const double *restrict x, double *restrict y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double s = x[i];
    for (int j = -1; j < m; j++)
      s += w[j + 1] * x[i];
    y[i] = s;
  }
}

static void shift(int n, const double *restrict x, double *restrict y)
{
#pragma acc parallel loop
  for (int i = 0; i < n; i++)
    y[i] = x[i] - 0.5;
}

int main(void)
{
  for (int i = 0; i < N; i++)
    a[i] = 0.01 * i;
  for (int j = 0; j < M; j++)
    w[j] = 0.125 * j;
  scale(N, a, b);
  smooth(N, M, b, c);
  shift(N, c, a);
  double t = 0.0;
  for (int i = 0; i < N; i++)
    t += a[i] * (i % 7) + b[i];
  printf("%.17g %.17g %.17g\n", t, a[N - 1], c[17]);
  return 0;
}
