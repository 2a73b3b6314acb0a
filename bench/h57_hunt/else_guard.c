/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 20
#define NA 5
static void guarded(int n, int na, double x[na][n], double y[na][n])
{
#pragma omp parallel for
  for (int a = 0; a < na; a++)
    for (int j = 0; j < n; j++) {
      double p;
      if (j == 0) p = 0; else p = x[a][j - 1];
      y[a][j] = p + a;
    }
}
int main(void)
{
  static double x[NA][N], y[NA][N];
  for (int a = 0; a < NA; a++) for (int j = 0; j < N; j++) x[a][j] = j * 10 + a;
  guarded(N, NA, x, y);
  double s = 0;
  for (int a = 0; a < NA; a++) for (int j = 0; j < N; j++) s += y[a][j] * (j + 1);
  printf("%.17g\n", s);
  return 0;
}
