/* translate-test: translate=--directives=openmp */
/* Host reads after an update of part of an array, in an OpenMP target data region. */
#include <stdio.h>
#define N 100
static double y[N], z[N];

int main(void) {
  double s = 0, t = 0, u = 0;
  for (int i = 0; i < N; i++) { y[i] = i; z[i] = -i; }
#pragma omp target data map(tofrom: y[0:N], z[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      y[i] = y[i] * 2 + 1;
#pragma omp target update from(y[0:N/2])
    for (int i = 0; i < N / 2; i++)
      s += y[i];
    t = y[3] + y[N / 2 - 1];
    for (int i = 0; i < N; i++) {
      u += y[i];
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      z[i] = z[i] + 1;
    t += z[5];
  }
  printf("%.17g %.17g %.17g\n", s, t, u);
  return 0;
}
