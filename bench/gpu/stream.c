/* STREAM kernels (copy, mul, add, triad, dot) on n doubles, as BabelStream runs them.
 * Usage: stream [log2 n] [reps].  Each region runs reps times; TRANSLATE_PROFILE=1 gives
 * the kernel time.  copy..triad use automatic mapping; dot maps its loop explicitly (a
 * floating-point sum stays sequential unless the user maps it). */
#include <stdio.h>
#include <stdlib.h>

static void copy(long n, const double *restrict a, double *restrict c)
{
#pragma translate kernel copy
  for (long i = 0; i < n; i++)
    c[i] = a[i];
#pragma translate end kernel
}

static void mul(long n, double s, double *restrict b, const double *restrict c)
{
#pragma translate kernel mul
  for (long i = 0; i < n; i++)
    b[i] = s * c[i];
#pragma translate end kernel
}

static void add(long n, const double *restrict a, const double *restrict b, double *restrict c)
{
#pragma translate kernel add
  for (long i = 0; i < n; i++)
    c[i] = a[i] + b[i];
#pragma translate end kernel
}

static void triad(long n, double s, double *restrict a, const double *restrict b,
                  const double *restrict c)
{
#pragma translate kernel triad
  for (long i = 0; i < n; i++)
    a[i] = b[i] + s * c[i];
#pragma translate end kernel
}

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
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  double s = 0.4, d = 0.0;
  for (long i = 0; i < n; i++) {
    a[i] = 0.1;
    b[i] = 0.2;
    c[i] = 0.0;
  }
  for (int r = 0; r < reps; r++) {
    copy(n, a, c);
    mul(n, s, b, c);
    add(n, a, b, c);
    triad(n, s, a, b, c);
    d = dot(n, a, b);
  }
  printf("a[7] %.17g b[7] %.17g c[7] %.17g dot %.17g\n", a[7], b[7], c[7], d);
  free(a); free(b); free(c);
  return 0;
}
