/* e2e fuzzer (h73), seed c:9 minimised: a prefetch (barriers) inside a loop whose bounds
 * name the split loop (k from i + 1 down to 1, i split onto l.0).  The kernel ran that loop
 * i_inner + 1 times in each work item, so the work items of a group passed different
 * numbers of barriers and read tiles nobody had fetched: wrong numbers, or a crash. */
#include <stdio.h>

void triangle(int n, const double b[12][12][12], double a[24][24], double c[24])
{
#pragma translate kernel down_to_one
#pragma translate split_iname("i", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("b", ["i_inner"], fetch_bounding_box=True)
  for (int i = 0; i <= n; i++)
    for (int j = 1; j <= 5; j++)
      for (int k = i + 1; k >= 1; k--)
        a[i + 2][j + 2] = a[i + 2][j + 2] + b[i + 1][j + 2][k - 1];
#pragma translate end kernel
#pragma translate kernel up_to_i
#pragma translate split_iname("i", 4, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("b", ["i_inner"], fetch_bounding_box=True)
  for (int i = 0; i <= n; i++)
    for (int k = 0; k <= i; k++)
      c[i] = c[i] * 0.5 + b[k][3][i];
#pragma translate end kernel
}

int main(void)
{
  static double b[12][12][12], a[24][24], c[24];
  for (int q = 0; q < 12 * 12 * 12; q++)
    (&b[0][0][0])[q] = 0.25 * ((q * 7 + 3) % 17 - 8);
  for (int q = 0; q < 24 * 24; q++)
    (&a[0][0])[q] = 0.5 * ((q * 3 + 1) % 13 - 6);
  for (int q = 0; q < 24; q++)
    c[q] = q;
  triangle(6, b, a, c);
  triangle(10, b, a, c);
  for (int i = 0; i < 24; i++) {
    printf("%d %a\n", i, c[i]);
    for (int j = 0; j < 24; j++)
      printf("%d %d %a\n", i, j, a[i][j]);
  }
  return 0;
}
