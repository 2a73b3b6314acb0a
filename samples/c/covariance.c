/* Covariance (PolyBench shape): column means, centring, then the upper triangle of the
 * covariance matrix mirrored into the lower one.  Three dependent loop nests in one region:
 * the translator cuts it into three parallel kernels (a column reduction, the centring, the
 * triangular product) launched in order, with the arrays on the device for the whole call. */
#include <stdio.h>
#define M 40
#define N 50
static double data[N][M], cov[M][M], mean[M];
static void covariance(int m, int n, double fn)
{
#pragma translate kernel covariance
  for (int j = 0; j < m; j++) {
    mean[j] = 0.0;
    for (int i = 0; i < n; i++)
      mean[j] += data[i][j];
    mean[j] /= fn;
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      data[i][j] -= mean[j];
  for (int i = 0; i < m; i++)
    for (int j = i; j < m; j++) {
      cov[i][j] = 0.0;
      for (int k = 0; k < n; k++)
        cov[i][j] += data[k][i] * data[k][j];
      cov[i][j] /= (fn - 1.0);
      cov[j][i] = cov[i][j];
    }
#pragma translate end kernel
}
int main(void)
{
  double s = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      data[i][j] = ((double)(i * j % 7) + 0.5 * i) / M;
  covariance(M, N, (double)N);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      s += cov[i][j] * (1 + (i + j) % 3);
  printf("%.17g %.17g %.17g\n", s, cov[0][0], cov[3][7]);
  return 0;
}
