/* Pointers with linearised indexing: a[i*m + j] addresses an n x m matrix stored row by row.
 *
 * The kernel sees each pointer as a 1-D array; how many elements the glue copies is the
 * footprint the loops access (n*m here), computed by the translator.  `restrict` tells it
 * that the two buffers do not overlap; the plain pointers of `scale_rows` may alias each
 * other.  A linearised subscript is not affine (i*m multiplies two unknowns); the translator
 * reads it back as rows where the column provably stays inside its row (b[j*n + i] over
 * i < n is row j, column i), so `transpose` is mapped in parallel.  `scale_rows` runs as
 * one work item: its plain pointers may overlap (declare them restrict to map it).  See
 * padded_rows.c for rows whose length is an expression (n + 4).
 */
#include <stdio.h>
#include <stdlib.h>

void transpose(int n, int m, const double *restrict a, double *restrict b)
{
#pragma translate kernel transpose
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[j * n + i] = a[i * m + j];
#pragma translate end kernel
}

void scale_rows(int n, int m, const double *s, double *b)
{
#pragma translate kernel scale_rows
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++)
      b[j * n + i] = b[j * n + i] * s[i];
#pragma translate end kernel
}

int main(void)
{
  int n = 19, m = 27;
  double *a = malloc(sizeof(double) * n * m), *b = malloc(sizeof(double) * n * m);
  double *s = malloc(sizeof(double) * n);
  double sum = 0.0;
  for (int k = 0; k < n * m; k++) {
    a[k] = k * 0.5 - 3.0;
    b[k] = -1.0;
  }
  for (int i = 0; i < n; i++)
    s[i] = 1.0 + i;
  transpose(n, m, a, b);
  scale_rows(n, m, s, b);
  for (int k = 0; k < n * m; k++)
    sum += b[k] * (k % 11);
  printf("checksum %.17g\n", sum);
  printf("b[1] %.17g b[%d] %.17g\n", b[1], n * m - 1, b[n * m - 1]);
  free(a);
  free(b);
  free(s);
  return 0;
}
