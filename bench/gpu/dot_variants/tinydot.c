/* Host cost per call of a group reduction (h2, issue 13): a dot of 4096 doubles (16 groups of
 * 256), called many times (usage: tinydot [calls]).  Prints the wall time per call; the
 * kernel itself is a few microseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double dot(long n, const double *restrict a, const double *restrict b)
{
  double sum = 0.0;
#pragma translate kernel tdot
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (long i = 0; i < n; i++)
    sum += a[i] * b[i];
#pragma translate end kernel
  return sum;
}

int main(int argc, char **argv)
{
  int calls = argc > 1 ? atoi(argv[1]) : 100000;
  static double a[4096], b[4096];
  struct timespec t0, t1;
  double d = 0.0;
  for (int i = 0; i < 4096; i++) {
    a[i] = 0.5 * (i % 3);
    b[i] = 0.25 * (i % 5);
  }
  d = dot(4096, a, b);   /* device set-up and program build */
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (int c = 0; c < calls; c++)
    d = dot(4096, a, b);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("tinydot calls %d per_call_us %.3f dot %.17g\n", calls,
         ((t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_nsec - t0.tv_nsec) / 1e3) / calls, d);
  return 0;
}
