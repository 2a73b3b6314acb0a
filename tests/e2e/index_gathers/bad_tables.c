/* A permutation table that a run breaks on purpose (argv[1]): 1 puts -1 into the table a
   pointer is read through, 2 puts n into the table a declared a[n] is read through. */
#include <stdio.h>
#include <stdlib.h>

static void through_pointer(int n, const int *restrict perm, const double *restrict a,
                            double *restrict b)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    b[i] = a[perm[i]];
}

static void through_declared(int n, const int *restrict perm, const double a[n],
                             double *restrict b)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    b[i] += a[perm[i]];
}

int main(int argc, char **argv)
{
  const int n = 100;
  int mode = argc > 1 ? atoi(argv[1]) : 0;
  int *perm = malloc(sizeof(int) * n);
  double *a = malloc(sizeof(double) * (n + 1)), *b = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) { perm[i] = (i * 7) % n; a[i] = i; }
  a[n] = 0;
  if (mode == 1) perm[n / 2] = -1;
  through_pointer(n, perm, a + 1, b);
  if (mode == 2) perm[3] = n;
  through_declared(n, perm, a, b);
  double s = 0;
  for (int i = 0; i < n; i++) s += b[i] * (i + 1);
  printf("%.17g\n", s);
  return 0;
}
