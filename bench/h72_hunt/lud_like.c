/* translate-test: translate=--directives=openmp rtol=1e-12 */
/* lud-like: a k loop outside, row and column updates inside parallel loops over i > k,
   triangular bounds j > k, a[i*n + k] /= a[k*n + k] */
#include <stdio.h>
#define N 96
static double m[N * N];
int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) m[i * N + j] = (i == j) ? N + 1.0 : ((i * 7 + j * 3) % 11) * 0.1;
  for (int k = 0; k < N - 1; k++) {
#pragma omp parallel for
    for (int i = k + 1; i < N; i++)
      m[i * N + k] /= m[k * N + k];
#pragma omp parallel for
    for (int i = k + 1; i < N; i++)
      for (int j = k + 1; j < N; j++)
        m[i * N + j] -= m[i * N + k] * m[k * N + j];
  }
  double s = 0;
  for (int i = 0; i < N * N; i++) s += m[i] * (i % 13);
  printf("%a\n", s);
  return 0;
}
