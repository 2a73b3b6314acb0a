/* e2e fuzzer (h76, third round h84): loops that run no iteration.  An inner loop empty for
 * every value of the outer one (j = 1 .. i with i <= -1), a constant empty loop, and a split
 * and mapped loop that never runs; before, each was refused with "loop over 'j' has no lower
 * bound" (exit 1, a wrong reason). */
#include <stdio.h>

void empty_loops(int n, const double b[40], double a[40])
{
#pragma translate kernel triangular_empty
  for (int i = -3; i <= -1; i++) {
    a[i + 3] += 1.0;
    for (int j = 1; j <= i; j++)
      a[i + 5] += b[j];
  }
#pragma translate end kernel
#pragma translate kernel constant_empty
  for (int i = 0; i < n; i++) {
    a[i + 6] += 2.0;
    for (int j = 0; j < 0; j++)
      a[i + 6] += b[j];
  }
#pragma translate end kernel
#pragma translate kernel mapped_empty
#pragma translate split_iname("j", 4, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    a[i + 20] = a[i + 20] * 2.0 + b[i];
    for (int j = 0; j < i - n; j++)
      a[j] += b[i];
  }
#pragma translate end kernel
#pragma translate kernel only_empty
  for (int j = 0; j < 0; j++)
    a[j] = -1.0;
#pragma translate end kernel
}

int main(void)
{
  static double b[40], a[40];
  for (int q = 0; q < 40; q++) {
    b[q] = (q * 7 + 3) % 17 - 8;
    a[q] = ((q * 3 + 1) % 13 - 6) / 2.0;
  }
  empty_loops(9, b, a);
  empty_loops(3, b, a);
  for (int q = 0; q < 40; q++)
    printf("%a\n", a[q]);
  return 0;
}
