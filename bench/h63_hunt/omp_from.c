/* translate-test: translate=--directives=openmp */
/* map(from:) of an array the loops write only in part (OpenMP: the rest is undefined).
   The sequential program keeps the host values; the translation, as OpenMP, does not. */
#include <stdio.h>
#define N 200
static double x[N], y[N], z[N], w[N];

int main(void)
{
  for (int i = 0; i < N; i++) { x[i] = i * 0.25; y[i] = -i; z[i] = 7; w[i] = 1; }
#pragma omp target teams distribute parallel for map(to: x[0:N/2]) map(tofrom: y[0:N])
  for (int i = 0; i < N; i++)
    y[i] = y[i] + x[i];
#pragma omp target data map(to: x[0:N]) map(tofrom: z[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++)
      z[i] = z[i] + x[i];
  }
#pragma omp target data map(from: w[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N / 2; i++)
      w[i] = i * 3.0;
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] * 3 + z[i] * 5 + w[i] * 7;
  printf("%.17g %g %g %g\n", s, z[N - 1], w[N - 1], y[N - 1]);
  return 0;
}
