#include <stdio.h>

/* c:359 of bench/e2e_fuzz.py, minimised: '-j' of a loop counting down; the translator runs
   the loop upwards over its negation, and '-j' became '-(-j)', printed '--j'. */
void f(int n, const int *restrict b, long *restrict a)
{
#pragma translate kernel negated
#pragma translate tag_inames("i:g.0")
  for (int i = 0; i < n; i++)
    for (int j = 0; j >= -3; j--)
      a[i * 4 - j] = b[-j + i] * 10 + j;
#pragma translate end kernel
}

int main(void)
{
  static int b[40];
  static long a[40];
  for (int q = 0; q < 40; q++) b[q] = (q * 7 + 3) % 17 - 8;
  f(8, b, a);
  for (int q = 0; q < 32; q++) printf("%ld\n", a[q]);
  return 0;
}
