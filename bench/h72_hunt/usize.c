/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <stddef.h>
static double x[100], m[100 * 100];
static void f(size_t n, size_t k, double *restrict a, const double *restrict b)
{
#pragma omp parallel for
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < k; j++) a[i] += b[i * k + j];
}
int main(void)
{
  for (int i = 0; i < 100 * 100; i++) m[i] = i % 7;
  f(40, 0, x, m);
  f(20, 30, x, m);
  f(3, 2, x, m);
  double s = 0;
  for (int i = 0; i < 100; i++) s += x[i] * (i + 1);
  printf("%a\n", s);
  return 0;
}
