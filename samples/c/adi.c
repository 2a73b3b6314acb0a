/* ADI (PolyBench shape): alternating-direction implicit sweeps inside a time loop.  Each
 * half step solves independent tridiagonal systems, one per row (forward elimination then
 * back substitution along j): the rows are parallel, j is sequential within each.  The time
 * loop becomes a host loop launching the two half steps as kernels every step. */
#include <stdio.h>
#define N 40
#define TSTEPS 4
static double u[N][N], v[N][N], p[N][N], q[N][N];
static void adi(int tsteps, int n)
{
  double a = -0.1, b = 1.2, c = -0.1, d = -0.05, e = 1.1, f = -0.05;
#pragma translate kernel adi
  for (int t = 1; t <= tsteps; t++) {
    for (int i = 1; i < n - 1; i++) {
      v[0][i] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = v[0][i];
      for (int j = 1; j < n - 1; j++) {
        p[i][j] = -c / (a * p[i][j - 1] + b);
        q[i][j] = (-d * u[j][i - 1] + (1.0 + 2.0 * d) * u[j][i] - f * u[j][i + 1]
                   - a * q[i][j - 1]) / (a * p[i][j - 1] + b);
      }
      v[n - 1][i] = 1.0;
      for (int j = n - 2; j >= 1; j--)
        v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];
    }
    for (int i = 1; i < n - 1; i++) {
      u[i][0] = 1.0;
      p[i][0] = 0.0;
      q[i][0] = u[i][0];
      for (int j = 1; j < n - 1; j++) {
        p[i][j] = -f / (d * p[i][j - 1] + e);
        q[i][j] = (-a * v[i - 1][j] + (1.0 + 2.0 * a) * v[i][j] - c * v[i + 1][j]
                   - d * q[i][j - 1]) / (d * p[i][j - 1] + e);
      }
      u[i][n - 1] = 1.0;
      for (int j = n - 2; j >= 1; j--)
        u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];
    }
  }
#pragma translate end kernel
}
int main(void)
{
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      u[i][j] = (double)(i + N - j) / N;
  adi(TSTEPS, N);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      s += u[i][j] * (1 + (i + 2 * j) % 5);
  printf("%.17g %.17g\n", s, u[5][7]);
  return 0;
}
