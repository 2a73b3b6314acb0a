/* translate-test: rtol=1e-13 translate=--directives=openmp */
/* PolyBench/ACC-like: function-like index macros A(i,j), 2-D VLAs `double (*a)[nj]`,
   size_t and unsigned loop counters, const int sizes, collapse(2), `parallel` + `for nowait`
   on independent loops, a static inline helper in the loop body. */
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#define A(i, j) a[(i) * nk + (j)]
#define B(i, j) b[(i) * nj + (j)]
#define C(i, j) c[(i) * nj + (j)]
enum { NI = 40, NJ = 36, NK = 44 };
static inline double scale(double x, double f) { return x * f; }

static void gemm(int ni, int nj, int nk, double alpha, double beta, double *restrict c,
                 const double *restrict a, const double *restrict b)
{
#pragma omp parallel for collapse(2)
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      double acc = scale(C(i, j), beta);
      for (int k = 0; k < nk; k++) acc += alpha * A(i, k) * B(k, j);
      C(i, j) = acc;
    }
}

static void mvt(size_t n, double x1[n], double x2[n], const double y1[n], const double y2[n],
                double (*m)[n])
{
#pragma omp parallel
  {
#pragma omp for nowait
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) x1[i] = x1[i] + m[i][j] * y1[j];
#pragma omp for
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++) x2[i] = x2[i] + m[j][i] * y2[j];
  }
}

static void jacobi(unsigned n, unsigned steps, double (*restrict u)[n], double (*restrict v)[n])
{
  for (unsigned t = 0; t < steps; t++) {
#pragma omp parallel for schedule(static)
    for (unsigned i = 1; i < n - 1; i++)
      for (unsigned j = 1; j < n - 1; j++)
        v[i][j] = 0.2 * (u[i][j] + u[i][j - 1] + u[i][j + 1] + u[i - 1][j] + u[i + 1][j]);
#pragma omp parallel for schedule(static)
    for (unsigned i = 1; i < n - 1; i++)
      for (unsigned j = 1; j < n - 1; j++)
        u[i][j] = 0.2 * (v[i][j] + v[i][j - 1] + v[i][j + 1] + v[i - 1][j] + v[i + 1][j]);
  }
}

int main(void)
{
  const int n = 50;
  static double a[NI * NK], b[NK * NJ], c[NI * NJ];
  for (int i = 0; i < NI * NK; i++) a[i] = (i % 13) / 13.0;
  for (int i = 0; i < NK * NJ; i++) b[i] = (i % 7) / 7.0 - 0.3;
  for (int i = 0; i < NI * NJ; i++) c[i] = (i % 5) * 0.25;
  gemm(NI, NJ, NK, 1.5, 1.2, c, a, b);
  double (*m)[n] = malloc(sizeof(double[n][n]));
  double x1[50], x2[50], y1[50], y2[50];
  for (int i = 0; i < n; i++) {
    x1[i] = i * 0.5; x2[i] = 1.0 - i * 0.01; y1[i] = (i % 3) * 0.3; y2[i] = (i % 4) * 0.1;
    for (int j = 0; j < n; j++) m[i][j] = ((i + 1) * (j + 2) % n) / (double)n;
  }
  mvt((size_t)n, x1, x2, y1, y2, m);
  static double u[30][30], v[30][30];
  for (int i = 0; i < 30; i++) for (int j = 0; j < 30; j++) u[i][j] = v[i][j] = ((i * j) % 9) * 1.5;
  jacobi(30u, 5u, u, v);
  double s = 0;
  for (int i = 0; i < NI * NJ; i++) s += c[i] * (i % 3 + 1);
  printf("%.17g %.17g %.17g %.17g %.17g\n", s, x1[7], x2[49], u[15][15], v[1][28]);
  free(m);
  return 0;
}
