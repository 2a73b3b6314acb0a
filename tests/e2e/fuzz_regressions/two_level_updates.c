/* e2e fuzzer (h76's over-strict refusal, third round h84): one accumulator updated at two
 * loop levels (s += b[i] in loop i, s += c[i][j] in loop j inside it; a maximum likewise),
 * loop i split onto l.0.  Before: refused, "mapping i_inner to l.0 races ... writes s[0]"
 * (each update saw the other as a use of its accumulator).  After: each is a reduction of
 * its own into s. */
#include <stdio.h>

void two_levels(int n, const int b[40], const int c[40][8], long res[2])
{
  int s = 0;
  int m = -100;
#pragma translate kernel two_levels
#pragma translate split_iname("i", 16, inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    s = s + b[i];
    for (int j = 0; j < 8; j++) {
      s += c[i][j];
      m = m > c[i][j] ? m : c[i][j];
    }
    if (b[i] * 2 > m)
      m = b[i] * 2;
  }
#pragma translate end kernel
  res[0] = s;
  res[1] = m;
}

int main(void)
{
  static int b[40], c[40][8];
  static long res[2];
  for (int q = 0; q < 40; q++)
    b[q] = (q * 7 + 3) % 17 - 8;
  for (int q = 0; q < 320; q++)
    (&c[0][0])[q] = (q * 5 + 1) % 23 - 11;
  two_levels(37, b, c, res);
  printf("%ld %ld\n", res[0], res[1]);
  two_levels(3, b, c, res);
  printf("%ld %ld\n", res[0], res[1]);
  two_levels(0, b, c, res);
  printf("%ld %ld\n", res[0], res[1]);
  return 0;
}
