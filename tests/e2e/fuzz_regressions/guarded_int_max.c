/* e2e fuzzer, third round (h84), fortran:5133 in C: an int maximum reduced across work
 * groups under an if; its neutral element was printed -2147483648L, and OpenCL's
 * max(int, long) is ambiguous: the kernel did not build. */
#include <stdio.h>

void guarded_max(int n, int m, const int b[40], long res[2])
{
  int s = -1000, t = 1000;
#pragma translate kernel guarded_max
#pragma translate tag_inames("i:g.0")
  for (int i = 0; i < n; i++) {
    if (i <= 4)
      s = s > m ? s : m;
    if (b[i] > 0)
      t = t < b[i] ? t : b[i];
  }
#pragma translate end kernel
  res[0] = s;
  res[1] = t;
}

int main(void)
{
  static int b[40];
  static long res[2];
  for (int q = 0; q < 40; q++)
    b[q] = (q * 7 + 3) % 17 - 8;
  guarded_max(37, 5, b, res);
  printf("%ld %ld\n", res[0], res[1]);
  guarded_max(3, -2000, b, res);
  printf("%ld %ld\n", res[0], res[1]);
  return 0;
}
