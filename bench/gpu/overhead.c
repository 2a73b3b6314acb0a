/* Host cost per region call: a region on 16 doubles called many times (usage: overhead
 * [calls]).  Prints the wall time per call twice: plain calls (x and y copied in, y copied back
 * on every call) and the same calls inside a data region (x and y present: nothing moves).
 * The kernel itself is negligible. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double x[16], y[16];

static void tiny(int n, double a)
{
#pragma translate kernel tiny
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
#pragma translate end kernel
}

static double since_us(const struct timespec *t0)
{
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  return (t1.tv_sec - t0->tv_sec) * 1e6 + (t1.tv_nsec - t0->tv_nsec) / 1e3;
}

int main(int argc, char **argv)
{
  int calls = argc > 1 ? atoi(argv[1]) : 100000;
  struct timespec t0;
  double plain, data;
  for (int i = 0; i < 16; i++)
    x[i] = i;
  tiny(16, 1.0);   /* first call: device set-up and program build */
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int c = 0; c < calls; c++)
    tiny(16, 1.0);
  plain = since_us(&t0) / calls;
  printf("overhead calls %d per_call_us %.3f check %g\n", calls, plain, y[15]);
  clock_gettime(CLOCK_MONOTONIC, &t0);
#pragma translate data copyin(x) copy(y)
  for (int c = 0; c < calls; c++)
    tiny(16, 0.5);
#pragma translate end data
  data = since_us(&t0) / calls;   /* includes entering and leaving the data region once */
  printf("overhead_data calls %d per_call_us %.3f check %g\n", calls, data, y[15]);
  return 0;
}
