/* STREAM kernels (copy, mul, add, triad, dot) on n doubles, as BabelStream runs them.
 * Usage: stream [log2 n] [reps] [resident|copies].  Each region runs reps times;
 * TRANSLATE_PROFILE=1 gives the kernel time.  copy..triad use automatic mapping; dot maps its
 * loop explicitly (a floating-point sum stays sequential unless the user maps it).
 * resident (the default): the calls run inside a data region, so the arrays stay on the device
 * as in the references (CuPy, CUDA); copies: plain calls, every call copies its arrays in and
 * out, and the program prints each region's end-to-end wall time per call ("e2e_call"). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

static double now_ms(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

/* One call of each kernel; adds each call's wall time (ms) to ms[0..4]. */
static double round_of_calls(long n, double s, double *a, double *b, double *c, double ms[5])
{
  double t = now_ms(), d;
  copy(n, a, c);
  ms[0] += now_ms() - t;
  t = now_ms();
  mul(n, s, b, c);
  ms[1] += now_ms() - t;
  t = now_ms();
  add(n, a, b, c);
  ms[2] += now_ms() - t;
  t = now_ms();
  triad(n, s, a, b, c);
  ms[3] += now_ms() - t;
  t = now_ms();
  d = dot(n, a, b);
  ms[4] += now_ms() - t;
  return d;
}

int main(int argc, char **argv)
{
  static const char *names[5] = {"copy", "mul", "add", "triad", "dot_k"};
  long n = 1L << (argc > 1 ? atoi(argv[1]) : 25);
  int reps = argc > 2 ? atoi(argv[2]) : 20;
  int copies = argc > 3 && strcmp(argv[3], "copies") == 0;
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
  double s = 0.4, d = 0.0, ms[5] = {0, 0, 0, 0, 0};
  for (long i = 0; i < n; i++) {
    a[i] = 0.1;
    b[i] = 0.2;
    c[i] = 0.0;
  }
  if (copies) {
    double warm[5] = {0, 0, 0, 0, 0};
    d = round_of_calls(n, s, a, b, c, warm);   /* untimed: builds the programs */
    for (int r = 0; r < reps; r++)
      d = round_of_calls(n, s, a, b, c, ms);
    for (int k = 0; k < 5; k++)   /* every call waits for its results: wall time is e2e */
      printf("e2e_call %s %.4f ms\n", names[k], ms[k] / reps);
  } else {
#pragma translate data copy(a[0:n], b[0:n], c[0:n])
    for (int r = 0; r < reps; r++)
      d = round_of_calls(n, s, a, b, c, ms);
#pragma translate end data
  }
  printf("a[7] %.17g b[7] %.17g c[7] %.17g dot %.17g\n", a[7], b[7], c[7], d);
  free(a); free(b); free(c);
  return 0;
}
