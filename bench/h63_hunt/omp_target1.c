/* translate-test: translate=--directives=openmp */
/* OpenMP target offload as modern C writes it: target teams distribute parallel for with map
   clauses, collapse(2), a target data region around several loops, target update, a max
   reduction with parallel for simd, firstprivate and lastprivate. */
#include <stdio.h>
#include <math.h>
#define N 300
#define M 40

static void axpy(int n, double a, const double *restrict x, double *restrict y)
{
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

static void grid(int n, int m, double *restrict g, const double *restrict x)
{
#pragma omp target teams distribute parallel for collapse(2) map(to: x[0:n]) map(from: g[0:n*m])
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      g[i * m + j] = x[i] * (j + 1) - j;
}

int main(void)
{
  static double x[N], y[N], g[N * M], z[N];
  for (int i = 0; i < N; i++) { x[i] = sin(i * 0.1); y[i] = i * 0.5; z[i] = 0; }
  axpy(N, 2.5, x, y);
  grid(N, M, g, x);
  double mx = -1e300;
  int last = -1;
  double scale = 3.0;
#pragma omp target data map(to: x[0:N]) map(tofrom: y[0:N], z[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      z[i] = x[i] + y[i];
#pragma omp target teams distribute parallel for firstprivate(scale)
    for (int i = 0; i < N; i++)
      y[i] = z[i] * scale;
#pragma omp target update from(y[0:N])
    y[0] += 1.0;
#pragma omp target update to(y[0:1])
#pragma omp target teams distribute parallel for lastprivate(last)
    for (int i = 0; i < N; i++) {
      last = i * 2;
      z[i] = y[i] - last;
    }
  }
#pragma omp parallel for simd reduction(max:mx)
  for (int i = 0; i < N; i++)
    mx = fmax(mx, z[i] * x[i]);
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] + z[i] * 3;
  for (int i = 0; i < N * M; i++) s += g[i] * (i % 7);
  printf("%.17g %.17g %d\n", s, mx, last);
  return 0;
}
