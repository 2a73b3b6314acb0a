/* Matrix-vector product with C99 variable-length array parameters: y = A x.
 *
 * A[n][m] keeps its two dimensions in the kernel (C order, extents n and m passed by value);
 * the call passes &A[0][0].  Each work item computes one row.
 */
#include <stdio.h>
#include <stdlib.h>

void matvec(int n, int m, const double A[n][m], const double x[m], double y[n])
{
#pragma translate kernel matvec
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < m; j++)
      s += A[i][j] * x[j];
    y[i] = s;
  }
#pragma translate end kernel
}

int main(void)
{
  int n = 77, m = 45;
  double (*A)[m] = malloc(sizeof(double) * n * m);
  double *x = malloc(sizeof(double) * m), *y = malloc(sizeof(double) * n);
  double sum = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      A[i][j] = 1.0 / (1 + i + 2 * j);
  for (int j = 0; j < m; j++)
    x[j] = j % 3 - 1.0;
  matvec(n, m, A, x, y);
  for (int i = 0; i < n; i++)
    sum += y[i] * (i + 1);
  printf("checksum %.17g\n", sum);
  printf("y[0] %.17g y[%d] %.17g\n", y[0], n - 1, y[n - 1]);
  free(A);
  free(x);
  free(y);
  return 0;
}
