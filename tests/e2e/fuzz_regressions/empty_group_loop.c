/* e2e fuzzer (h73), seed fortran:124 in C: a statement after a parallel loop that has no
 * values; the kernel's grid had no group to run it. */
#include <stdio.h>

void empty_inner(int n, const int b[12][12][12], int a[24][24])
{
#pragma translate kernel after_empty
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
  for (int i = -1; i >= -1; i--) {
    for (int j = 0; j <= i; j++)
      a[j + 3][i + 3] = a[j + 3][i + 3] + 1;
    a[i + 25][i + 3] = a[i + 25][i + 3] + b[2 - i][i + 2][i + 9];
  }
#pragma translate end kernel
#pragma translate kernel sometimes_empty
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
  for (int i = n; i >= -1; i--) {
    for (int j = 0; j <= i; j++)
      a[j + 1][i + 3] = a[j + 1][i + 3] + 1;
    a[23][i + 3] = a[23][i + 3] + b[3][2][1];
  }
#pragma translate end kernel
}

int main(void)
{
  static int b[12][12][12], a[24][24];
  for (int q = 0; q < 1728; q++)
    (&b[0][0][0])[q] = (q * 7 + 3) % 17 - 8;
  for (int q = 0; q < 576; q++)
    (&a[0][0])[q] = (q * 3 + 1) % 13 - 6;
  empty_inner(20, b, a);
  empty_inner(-1, b, a);
  for (int i = 0; i < 24; i++) {
    for (int j = 0; j < 24; j++)
      printf("%4d", a[i][j]);
    printf("\n");
  }
  return 0;
}
