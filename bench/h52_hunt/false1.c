/* translate-test: translate=--directives=openmp,openacc */
#include <stdio.h>
#define N 100
static double a[N], b[N], c[N * 2];
static int ix[N];
int main(void) {
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 1; ix[i] = (i * 7) % 50; }
#pragma acc kernels
  {
#pragma acc loop independent
    for (int i = 1; i < N; i++) a[i] = a[i - 1] + b[i];
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) c[ix[i]] += b[i];
#pragma omp parallel for
  for (int i = 0; i < N; i++) c[2 * i + 1] = c[2 * i] + c[i + N / 2];
  double s = 0; for (int i = 0; i < N; i++) s += a[i] * (i + 1) + c[i] * 3 + c[i + N];
  printf("%.17g\n", s);
  return 0;
}
