/* e2e fuzzer (h76), seed fortran:1098 with --features all, minimised (the C neighbour): a
   product reduction over a loop split with outer_tag="g.0", nested in loop j, made code
   generation put j around the split loop's sequential part for every statement of the
   kernel: the writes of a[j] and a[i] ran interchanged and distributed (wrong numbers). */
#include <stdio.h>

void red(int n, const int b[8][8], int a[40], long *s)
{
#pragma translate kernel red
#pragma translate split_iname("i", 16, outer_tag="g.0")
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 4; j++) {
      s[0] = s[0] * b[j][i];
      a[j] = 10 * i + j;
    }
    a[i] = a[i] + 100;
  }
#pragma translate end kernel
}

int main(void)
{
  static int b[8][8], a[40];
  long s = 1;
  for (int q = 0; q < 64; q++) ((int *) b)[q] = 1 - 2 * ((q / 3) % 2);
  red(6, b, a, &s);
  for (int q = 0; q < 8; q++) printf("%d\n", a[q]);
  printf("%ld\n", s);
  return 0;
}
