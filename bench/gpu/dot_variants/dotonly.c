/* h2: the dot region of bench/gpu/stream.c alone, called reps times. */
#include <stdio.h>
#include <stdlib.h>

static double dot(long n, const double *restrict a, const double *restrict b)
{
  double sum = 0.0;
#pragma translate kernel dot_k
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (long i = 0; i < n; i++)
    sum += a[i] * b[i];
#pragma translate end kernel
  return sum;
}

int main(int argc, char **argv)
{
  long n = 1L << (argc > 1 ? atoi(argv[1]) : 25);
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  for (long i = 0; i < n; i++) {
    a[i] = 0.1 + (i % 7) * 0.01;
    b[i] = 0.2 - (i % 5) * 0.003;
  }
  double d = 0.0, first = 0.0;
  int same = 1;
  for (int r = 0; r < reps; r++) {
    d = dot(n, a, b);
    if (r == 0) first = d; else same &= d == first;
  }
  printf("dot %.17g same_bits %d\n", d, same);
  free(a); free(b);
  return 0;
}
