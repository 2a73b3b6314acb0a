/* translate-test: translate=--directives=openmp
 *
 * saxpy with OpenMP: the directive says the loop is parallel; `translate --directives openmp`
 * proves it and turns the loop into an OpenCL kernel (the same kernel as samples/c/saxpy.c
 * without its mapping pragma).  Without the translator the file is ordinary OpenMP C.
 */
#include <stdio.h>

#define N 1000

void saxpy(int n, double a, const double *restrict x, double *restrict y)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
}

int main(void)
{
  static double x[N], y[N];
  double sum = 0.0;
  for (int i = 0; i < N; i++) {
    x[i] = 0.5 * i;
    y[i] = 1.0 / (i + 1);
  }
  saxpy(N, 3.0, x, y);
  for (int i = 0; i < N; i++)
    sum += y[i];
  printf("checksum %.17g\n", sum);
  printf("y[0] %.17g y[%d] %.17g\n", y[0], N - 1, y[N - 1]);
  return 0;
}
