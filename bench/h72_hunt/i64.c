/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <stddef.h>
#define R 40
#define C 30
static long v[R][C];
static unsigned long w[R * C];
static long long x[R];
static size_t z[R * C];
int main(void)
{
  long n = 100000;
  size_t m = 3000000000u;
#pragma omp parallel for collapse(2)
  for (long i = 0; i < R; i++)
    for (long j = 0; j < C; j++)
      v[i][j] = (i + 60000) * n + j * 70000 + (i + j) * 1000000007L;
#pragma omp parallel for
  for (size_t k = 0; k < R * C; k++) {
    w[k] = k * m + (k << 33);
    z[k] = k * 4000000000u;
  }
#pragma omp parallel for
  for (long long i = 0; i < R; i++)
    x[i] = i * i * 3000000000LL + (i + i) * 2000000000;
  long s = 0; unsigned long sw = 0; long long sx = 0;
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) s ^= v[i][j] * (i + 1);
  for (int k = 0; k < R * C; k++) sw ^= w[k] + z[k] * 3;
  for (int i = 0; i < R; i++) sx ^= x[i];
  printf("%ld %lu %lld\n", s, sw, sx);
  return 0;
}
