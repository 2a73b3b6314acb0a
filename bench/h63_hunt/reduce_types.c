/* translate-test: translate=--directives=openmp */
/* Reductions whose variable and operands differ in type: unsigned max of signed values
   (compared as unsigned), an int max through fmax of ints, an unsigned min, a long sum of
   ints, a count of comparisons, a float sum.  (A short or unsigned char sum, and an int
   max of double terms, are refused: tests/e2e/test_integer_reductions.py.) */
#include <stdio.h>
#include <math.h>
#define N 1000
static int a[N];
static float f[N];

int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = (i * 7919) % 3001 - 1500; f[i] = (float)(a[i] % 64); }
  unsigned umax = 0, umin = 4000000000u;
  int imax = -100000, imin = 3, cnt = 0;
  long lsum = 0;
  float fs = 0;
#pragma omp parallel for reduction(max:umax) reduction(min:umin)
  for (int i = 0; i < N; i++) {
    umax = a[i] > umax ? a[i] : umax;
    if (a[i] < umin) umin = a[i];
  }
#pragma omp parallel for reduction(+:lsum)
  for (int i = 0; i < N; i++)
    lsum += a[i];
#pragma omp parallel for reduction(max:imax) reduction(min:imin) reduction(+:cnt, fs)
  for (int i = 0; i < N; i++) {
    imax = fmax(imax, a[i]);
    imin = fmin(imin, a[i] / 3);
    cnt += a[i] > 0;
    fs += f[i];
  }
  printf("%u %u %d %d %ld %d %g\n", umax, umin, imax, imin, lsum, cnt, fs);
  return 0;
}
