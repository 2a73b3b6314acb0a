/* translate-test: translate=--directives=openmp */
/* A naive port of a wavefront sweep: parallel for on the i loop, although psi(i, j) reads
   psi(i-1, j) written by the previous i.  Must be refused at the directive. */
#include <stdio.h>
#define NX 40
#define NY 30
static double psi[NY + 1][NX + 1], q[NY][NX];

int main(void)
{
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) q[j][i] = 1.0 + 0.01 * ((i + 3 * j) % 7);
  for (int j = 0; j < NY; j++) {
#pragma omp parallel for
    for (int i = 0; i < NX; i++)
      psi[j + 1][i + 1] = 0.25 * (q[j][i] + psi[j + 1][i] + psi[j][i + 1]);
  }
  printf("%.17g\n", psi[NY][NX]);
  return 0;
}
