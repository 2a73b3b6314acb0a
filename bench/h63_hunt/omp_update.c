/* translate-test: translate=--directives=openmp */
/* target update of a section smaller than what the host then reads. */
#include <stdio.h>
#define N 100
static double y[N];

int main(void)
{
  for (int i = 0; i < N; i++) y[i] = i;
  double s = 0;
#pragma omp target data map(tofrom: y[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      y[i] = y[i] * 2 + 1;
#pragma omp target update from(y[0:N/2])
    for (int i = 0; i < N; i++)
      s += y[i];
  }
  printf("%.17g %g\n", s, y[N - 1]);
  return 0;
}
