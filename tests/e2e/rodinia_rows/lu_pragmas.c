/* Rows of flat arrays behind pointers, mapped by pragmas: offsets ((i + 1)*m + j - 1 over
   j = 1..m), a triangle (j >= i), and LU's column k of a host loop (a[j*size + k] divided by
   the pivot a[k*size + k], k a parameter: assume("k >= 0") proves the column in its row). */
#include <stdio.h>
#include <stdlib.h>
static void off(int n, int m, const float *restrict a, float *restrict b)
{
#pragma translate kernel off
#pragma translate tag_inames("i:g.1, j:g.0")
  for (int i = 0; i < n - 1; i++)
    for (int j = 1; j <= m; j++)
      b[(i + 1) * m + j - 1] = a[i * m + j - 1] + a[(i + 1) * m + j - 1];
#pragma translate end kernel
}
static void tri(int size, float *restrict a)
{
#pragma translate kernel tri
#pragma translate tag_inames("i:g.0")
  for (int i = 0; i < size; i++)
    for (int j = i; j < size; j++)
      a[i * size + j] = a[i * size + j] * 0.5f + (float)(j - i);
#pragma translate end kernel
}
static void rowk(int size, int k, float *restrict a)
{
#pragma translate kernel rowk
#pragma translate tag_inames("j:g.0")
#pragma translate assume("k >= 0")
  for (int j = k + 1; j < size; j++)
    a[j * size + k] = a[j * size + k] / a[k * size + k];
#pragma translate end kernel
}
int main(void)
{
  int n = 13, m = 11;
  float *a = malloc(sizeof(float) * n * m), *b = calloc(n * m, sizeof(float));
  for (int i = 0; i < n * m; i++) a[i] = (float)(i % 7) + 1.0f;
  off(n, m, a, b);
  tri(11, a);
  rowk(11, 3, a);
  double s = 0;
  for (int i = 0; i < n * m; i++) s += b[i] * (i % 5) + a[i];
  printf("%.9g\n", s);
  return 0;
}
