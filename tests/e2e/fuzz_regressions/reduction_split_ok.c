/* h76: the neighbour of reduction_interchange.c that stays accepted: the other statements of
   the split loop touch only their own iteration's elements (c[i], a[j][i]), so running j around
   the reduction's part of i reorders no dependence. */
#include <stdio.h>
void red(int n, const int b[8][8], int a[8][8], int c[8], long *s)
{
#pragma translate kernel red
#pragma translate split_iname("i", 16, outer_tag="g.0")
  for (int i = 0; i < n; i++) {
    c[i] = 2 * b[0][i];
    for (int j = 0; j < 4; j++) {
      s[0] = s[0] + b[j][i];
      a[j][i] = c[i] + j;
    }
  }
#pragma translate end kernel
}
int main(void)
{
  static int b[8][8], a[8][8], c[8];
  long s = 1;
  for (int q = 0; q < 64; q++) ((int *) b)[q] = 1 - 2 * ((q / 3) % 2);
  red(6, b, a, c, &s);
  for (int q = 0; q < 64; q++) printf("%d\n", ((int *) a)[q]);
  printf("%ld\n", s);
  return 0;
}
