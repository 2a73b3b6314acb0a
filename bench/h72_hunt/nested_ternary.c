/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 200
static double a[N], c[N];
static void f(int n, const double *restrict in, double *restrict out)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = i == n - 1 ? in[i] : i < n - 2 ? in[i + 2] - in[i + 1] : in[i + 1];
}
int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = (i % 7) * 0.2; c[i] = (i % 5) * 0.1; }
  f(N / 2, a, a + N / 2);
  f(N / 2, c + N / 2, c);
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i] * i + c[i];
  printf("%a\n", s);
  return 0;
}
