/* h76: statements on either side of loop j, in the loop split for a parallel reduction over its
   sequential part inside j (which also holds d[j][i] = a[i] + j): code generation ran a[i] = ..
   and c[i] = .. in two loops over that part, around the loop over j, so c[i], which reads
   a[i + 1] before the next iteration writes it, read the new value (exit 0, wrong numbers). */
#include <stdio.h>

void red(int n, const int b[8][8], int a[8], int c[8], int d[8][8], long *s)
{
#pragma translate kernel red
#pragma translate split_iname("i", 16, outer_tag="g.0")
  for (int i = 0; i < n; i++) {
    a[i] = 10 * i;
    for (int j = 0; j < 4; j++) {
      s[0] = s[0] + b[j][i];
      d[j][i] = a[i] + j;
    }
    c[i] = d[0][i] + a[i + 1];
  }
#pragma translate end kernel
}

int main(void)
{
  static int b[8][8], a[8], c[8], d[8][8];
  long s = 1;
  for (int q = 0; q < 64; q++) ((int *) b)[q] = 1 - 2 * ((q / 3) % 2);
  for (int q = 0; q < 8; q++) a[q] = -q;
  red(6, b, a, c, d, &s);
  for (int q = 0; q < 8; q++) printf("%d %d %d\n", a[q], c[q], d[1][q]);
  printf("%ld\n", s);
  return 0;
}
