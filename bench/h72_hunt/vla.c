/* translate-test: translate=--directives=openmp */
/* VLA parameters double a[n][m], pointers to rows double (*restrict b)[m], 3-D index macros */
#include <stdio.h>
#define NX 37
#define NY 29
#define NZ 11
#define I3(i, j, k) (((k) * ny + (j)) * nx + (i))
static double A[NY][NX], B[NY][NX], G[NX * NY * NZ], H[NX * NY * NZ];
static void smooth(int n, int m, const double a[n][m], double b[n][m])
{
#pragma omp parallel for collapse(2)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[i][j] = 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1]);
}
static void rows(int n, int m, double (*restrict b)[m], const double (*restrict a)[m])
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i][j] += a[i][m - 1 - j] * (i - j);
}
static void lap3(int nx, int ny, int nz, const double *restrict g, double *restrict h)
{
#pragma omp parallel for collapse(3)
  for (int k = 1; k < nz - 1; k++)
    for (int j = 1; j < ny - 1; j++)
      for (int i = 1; i < nx - 1; i++)
        h[I3(i, j, k)] = g[I3(i - 1, j, k)] + g[I3(i + 1, j, k)] + g[I3(i, j - 1, k)]
                       + g[I3(i, j + 1, k)] + g[I3(i, j, k - 1)] + g[I3(i, j, k + 1)]
                       - 6.0 * g[I3(i, j, k)];
}
int main(void)
{
  for (int i = 0; i < NY; i++) for (int j = 0; j < NX; j++) A[i][j] = (i * 13 + j * 7) % 17;
  for (int x = 0; x < NX * NY * NZ; x++) G[x] = (x * 31) % 101 * 0.5;
  for (int it = 0; it < 3; it++) { smooth(NY, NX, A, B); rows(NY, NX, A, B); }
  lap3(NX, NY, NZ, G, H);
  double s = 0;
  for (int i = 0; i < NY; i++) for (int j = 0; j < NX; j++) s += A[i][j] * (j + 1) + B[i][j];
  for (int x = 0; x < NX * NY * NZ; x++) s += H[x] * (x % 7);
  printf("%a\n", s);
  return 0;
}
