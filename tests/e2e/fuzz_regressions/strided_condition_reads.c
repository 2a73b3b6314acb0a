/* e2e fuzzer (h73), seed fortran:112 in C: a loop counting down by two whose condition reads
 * an array three ways (the Fortran program stopped with an internal error). */
#include <stdio.h>

void strided(int n, const long b[24][24], double a[24])
{
#pragma translate kernel down_by_two
  for (int i = n; i >= 0; i -= 2) {
    if (b[10 - i][i + 12] == b[i + 5][i + 2] * b[i + 6][i + 16])
      a[i] = a[i] + 1;
    else
      a[i] = a[i] - i;
  }
#pragma translate end kernel
}

int main(void)
{
  static long b[24][24];
  static double a[24];
  for (int q = 0; q < 24 * 24; q++)
    (&b[0][0])[q] = (q * 7 + 3) % 5 - 2;
  for (int n = 3; n <= 6; n++)
    strided(n, b, a);
  for (int i = 0; i < 24; i++)
    printf("%a\n", a[i]);
  return 0;
}
