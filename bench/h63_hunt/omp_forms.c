/* translate-test: translate=--directives=openmp */
/* Spellings of OpenMP offload: target teams + distribute parallel for on separate lines,
   target teams distribute alone, target parallel for, target simd, target teams loop,
   target + parallel for in a block, distribute parallel for simd with collapse. */
#include <stdio.h>
#define N 200
#define M 16
static double a[N], b[N], c[N], d[N], e[N], f[N], g[N * M];

int main(void)
{
  for (int i = 0; i < N; i++) a[i] = i * 0.5 - 7;
#pragma omp target teams map(to: a[0:N]) map(from: b[0:N])
#pragma omp distribute parallel for
  for (int i = 0; i < N; i++)
    b[i] = a[i] * 2;
#pragma omp target teams distribute map(to: a[0:N]) map(from: c[0:N])
  for (int i = 0; i < N; i++)
    c[i] = a[i] + b[i];
#pragma omp target parallel for map(to: c[0:N]) map(from: d[0:N])
  for (int i = 0; i < N; i++)
    d[i] = c[i] - 1;
#pragma omp target simd map(to: d[0:N]) map(from: e[0:N])
  for (int i = 0; i < N; i++)
    e[i] = d[i] * d[i];
#pragma omp target teams loop map(to: e[0:N]) map(from: f[0:N])
  for (int i = 0; i < N; i++)
    f[i] = e[i] / 3;
#pragma omp target map(tofrom: f[0:N])
  {
#pragma omp parallel for
    for (int i = 0; i < N; i++)
      f[i] = f[i] + 1;
  }
#pragma omp target teams distribute parallel for simd collapse(2) map(to: f[0:N]) map(from: g[0:N*M])
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      g[i * M + j] = f[i] * j;
  double s = 0;
  for (int i = 0; i < N; i++) s += b[i] + c[i] * 2 + d[i] * 3 + e[i] * 4 + f[i] * 5;
  for (int i = 0; i < N * M; i++) s += g[i];
  printf("%.17g\n", s);
  return 0;
}
