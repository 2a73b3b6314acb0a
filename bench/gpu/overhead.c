/* Host cost per region call: a region on 16 doubles called many times (usage: overhead
 * [calls]).  Prints the wall time per call; the kernel itself is negligible. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void tiny(int n, double a, const double *restrict x, double *restrict y)
{
#pragma translate kernel tiny
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
#pragma translate end kernel
}

int main(int argc, char **argv)
{
  int calls = argc > 1 ? atoi(argv[1]) : 100000;
  static double x[16], y[16];
  struct timespec t0, t1;
  for (int i = 0; i < 16; i++)
    x[i] = i;
  tiny(16, 1.0, x, y);   /* first call: device set-up and program build */
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int c = 0; c < calls; c++)
    tiny(16, 1.0, x, y);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("overhead calls %d per_call_us %.3f check %g\n", calls,
         ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / calls, y[15]);
  return 0;
}
