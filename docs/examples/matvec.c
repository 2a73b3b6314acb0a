/* The tutorial's C program: y = A x for a dense matrix, row by row. */
#include <stdio.h>

#define N 700

static void matvec(int n, const double a[n][n], const double x[n], double y[n])
{
#pragma translate kernel matvec_k
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++)
      s += a[i][j] * x[j];
    y[i] = s;
  }
#pragma translate end kernel
}

static double a[N][N], x[N], y[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    x[i] = 1.0 / (i + 1);
    for (int j = 0; j < N; j++)
      a[i][j] = (double)((i + 2 * j) % 7) - 3.0;
  }
  matvec(N, a, x, y);
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    sum += y[i];
  printf("sum %.12f  y[1] %.12f\n", sum, y[1]);
  return 0;
}
