/* translate-test: translate=--directives=openmp,openacc */
#include <stdio.h>
#define N 200
static double a[N], b[N];
int main(void) {
  int i, j; double t = -1, u = 3;
  for (i = 0; i < N; i++) a[i] = i * 0.3 - 7;
#pragma acc parallel loop private(t)
  for (i = 0; i < N; i++) { t = a[i] * 2; b[i] = t; }
  printf("%d\n", i);
#pragma translate kernel c2
  for (j = N - 1; j >= 0; j -= 2) { double i = a[j]; u = i * j; b[j] += u; }
#pragma translate end kernel
  printf("%.17g %d\n", u, j);
#pragma omp parallel for private(t)
  for (i = 0; i < N; i++) { t = b[i]; a[i] = t * t; }
  printf("%d\n", i);
  double s = 0; for (i = 0; i < N; i++) s += a[i] * i + b[i]; printf("%.17g\n", s);
  return 0;
}
