/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N (1 << 12)
#define M (1L << 11)
#define K ((1u << 31) >> 20)
static long a[N], b[M], c[K];
int main(void)
{
#pragma omp parallel for
  for (int i = 0; i < N; i++) a[i] = (long)i << 33 | (1 << 30) >> 3 | -64 >> 2;
#pragma omp parallel for
  for (long i = 0; i < M; i++) b[i] = i + (1L << 40) + (3u << 30) + (-1 >> 1);
#pragma omp parallel for
  for (unsigned i = 0; i < K; i++) c[i] = i * (0xffffffffu << 4);
  long s = 0;
  for (int i = 0; i < N; i++) s ^= a[i] + (i < M ? b[i] : 0) + (i < K ? c[i] : 0);
  printf("%ld\n", s);
  return 0;
}
