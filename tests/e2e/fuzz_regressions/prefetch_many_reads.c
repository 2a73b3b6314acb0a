/* e2e fuzzer (h73), seed c:9: add_prefetch(..., fetch_bounding_box=True) of a 3-D array read
 * five ways in a triangular nest.  The bounding box of its footprint had 100 pieces, and the
 * translator ran isl's convex hull of them for more than five minutes. */
#include <stdio.h>

void sweep(int n, const double b[12][12][12], double a[24][24])
{
#pragma translate kernel many_reads
#pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("b", ["i_inner"], fetch_bounding_box=True)
  for (int i = 0; i <= n; i++) {
    for (int j = 1; j <= 5; j++) {
      for (int k = i + 1; k >= 1; k--)
        a[i + 2][j + 2] = a[i + 2][j + 2] + b[i + 1][j + 2][k - 1] * b[i + 1][2 * j - 1][k + 4];
      a[i + 2][j + 2] += b[11 - i - j][j + 4][j + 5] - b[i + 3][5 - j][j + 1];
    }
    a[i + 2][i + 12] = b[8 - i][i + 4][i + 2];
  }
#pragma translate end kernel
}

int main(void)
{
  static double b[12][12][12], a[24][24];
  for (int q = 0; q < 12 * 12 * 12; q++)
    (&b[0][0][0])[q] = 0.25 * ((q * 7 + 3) % 17 - 8);
  for (int q = 0; q < 24 * 24; q++)
    (&a[0][0])[q] = 0.5 * ((q * 3 + 1) % 13 - 6);
  sweep(6, b, a);
  for (int i = 0; i < 24; i++)
    for (int j = 0; j < 24; j++)
      printf("%d %d %a\n", i, j, a[i][j]);
  return 0;
}
