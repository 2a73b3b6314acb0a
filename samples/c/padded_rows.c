/* Padded rows: one flat block of m rows of n + 4 floats (2 halo cells at each end of a row),
 * addressed as a[(n + 4)*k + j].  The translator reads such a subscript back as row k, column
 * j of a 2-D array (the coefficient n + 4 of k is the row length) once it proves that the
 * column stays inside its row (0 <= j + 3 < n + 4 for the widest read here), so the nest is
 * mapped in parallel, j (stride one) on l.0.  A column that may reach the next row
 * (j <= n + 4) keeps the flat address, and the loop over rows stays sequential.
 */
#include <stdio.h>
#include <stdlib.h>

static void smooth(int n, int m, const float *restrict a, float *restrict b,
                   float *restrict c)
{
#pragma translate kernel padded
  for (int k = 0; k < m; k++)
    for (int j = 0; j < n; j++) {
      b[(n + 4) * k + j + 2] = 0.25f * a[(n + 4) * k + j + 1] + 0.5f * a[(n + 4) * k + j + 2]
                               + 0.25f * a[(n + 4) * k + j + 3];
      c[k * (n + 4) + j] = 2.0f * a[k * (n + 4) + j] + 1.0f;
    }
#pragma translate end kernel
}

int main(void)
{
  int n = 37, m = 11, size = (37 + 4) * 11;
  float *a = malloc(sizeof(float) * size), *b = calloc(size, sizeof(float));
  float *c = calloc(size, sizeof(float));
  for (int i = 0; i < size; i++)
    a[i] = (float)(i % 13) - 6.0f;
  smooth(n, m, a, b, c);
  double s = 0.0;
  for (int i = 0; i < size; i++)
    s += (b[i] + 3.0 * c[i]) * (i % 7 + 1);
  printf("%.9g %.9g %.9g %.9g\n", s, b[2], b[size - 3], c[size - 5]);
  return 0;
}
