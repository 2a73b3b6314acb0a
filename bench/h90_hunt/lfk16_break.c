/* translate-test: translate=--directives=openmp,translate */
/* Livermore loop 16's search as C writes it: the first zone whose plan falls below a
   threshold, `break` out of the loop (Fortran's EXIT form is a MIN reduction). */
#include <stdio.h>
#define N 1001
static double plan[N + 1];
static int zone[N + 1];

int main(void)
{
  int n = N;
  for (int k = 0; k < N + 1; k++) {
    zone[k] = (k * 37) % n;
    plan[k] = 10.0 - 0.01 * ((k * 13) % 1000);
  }
  double tt = 0.02;
  int kfound = -1;
#pragma translate kernel lfk16
  for (int k = 0; k < n; k++)
    if (plan[zone[k]] < tt) {
      kfound = k;
      break;
    }
#pragma translate end kernel
  printf("k16 %d\n", kfound);
  return 0;
}
