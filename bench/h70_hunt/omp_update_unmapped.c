/* translate-test: translate=--directives=openmp,openacc */
/* target update of data that is not mapped (OpenMP: nothing happens), OpenACC update
   if_present outside a data region. */
#include <stdio.h>
#define N 200
static double x[N], y[N];

int main(void) {
  for (int i = 0; i < N; i++) x[i] = i * 0.5;
#pragma omp target teams distribute parallel for map(to: x[0:N]) map(from: y[0:N])
  for (int i = 0; i < N; i++)
    y[i] = x[i] * 3.0;
#pragma omp target update from(y[0:N])
#pragma acc update self(x[0:N]) if_present
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] - x[i];
  printf("%.17g\n", s);
  return 0;
}
