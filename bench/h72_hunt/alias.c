/* translate-test: translate=--directives=openmp */
/* plain pointers that overlap, as callers pass them: in place, shifted by one, halves */
#include <stdio.h>
#define N 4000
static double a[2 * N], b[N];
static void axpy(int n, double s, const double *x, double *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = y[i] + s * x[i];
}
static void scale(int n, const double *x, double *y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}
int main(void)
{
  for (int i = 0; i < 2 * N; i++) a[i] = i % 13;
  for (int i = 0; i < N; i++) b[i] = i % 5;
  axpy(N, 0.5, b, b);            /* same array: y[i] depends on x[i] only */
  scale(N, a, a + N);            /* disjoint halves */
  scale(N, a + 1, a);            /* overlapping: y[i] = 2*x[i+1], reads before writes */
  axpy(N, 1.5, a, a + 1);        /* overlapping the other way: a carried dependence */
  double s = 0;
  for (int i = 0; i < 2 * N; i++) s += a[i] * (i % 3 + 1);
  for (int i = 0; i < N; i++) s += b[i];
  printf("%.17g\n", s);
  return 0;
}
