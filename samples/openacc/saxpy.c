/* translate-test: translate=--directives=openacc
 *
 * saxpy: y = a*x + y on the GPU.
 *
 * The OpenACC version of samples/c/saxpy.c: "parallel loop" declares the loop independent
 * (the translator proves it) and vector_length(128) asks for the pragma version's work groups
 * of 128 work items.  Build and run (see DESIGN.md):
 *   translate --directives openacc saxpy.c -o out
 *   gcc out/saxpy.c out/saxpy.host.c "$RT/translate_rt.c" -I"$RT" -lOpenCL -lm
 */
#include <stdio.h>

#define N 1000

void saxpy(int n, double a, const double *restrict x, double *restrict y)
{
#pragma acc parallel loop vector_length(128) copyin(x[0:n]) copy(y[0:n])
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
