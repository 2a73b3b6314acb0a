/* An index table written on the device inside a data region, then read as a gather's table:
   the host copy of perm is stale (all zeros) while the kernels run. */
#include <stdio.h>
#include <stdlib.h>

static void make_perm(int n, int *restrict perm)
{
#pragma translate kernel make_perm
  for (int i = 0; i < n; i++)
    perm[i] = (7 * i + 3) % n;
#pragma translate end kernel
}

static void gather(int n, const int *restrict perm, const double *restrict a,
                   double *restrict b)
{
#pragma translate kernel gather
  for (int i = 0; i < n; i++)
    b[i] = 2.0 * a[perm[i]];
#pragma translate end kernel
}

int main(void)
{
  const int n = 1000;
  int *perm = calloc(n, sizeof *perm);
  double *a = malloc(n * sizeof *a), *b = calloc(n, sizeof *b);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    a[i] = 1.0 + i;
#pragma translate data create(perm[0:n])
  {
    make_perm(n, perm);
    gather(n, perm, a, b);
  }
#pragma translate end data
  for (int i = 0; i < n; i++)
    sum += b[i] * (i % 13 + 1);
  printf("%.17g %.17g %.17g\n", b[0], b[n - 1], sum);
  free(perm); free(a); free(b);
  return 0;
}
