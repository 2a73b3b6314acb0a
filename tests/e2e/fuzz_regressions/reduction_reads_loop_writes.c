/* e2e fuzzer (h76's over-strict refusal, third round h84): a loop split onto l.0 whose
 * sequential part joins the reduction, and the reduction's term reads what the loop body
 * wrote just before in the same iteration (a[i] = ..; s += a[i]).  Before: refused, "mapping
 * i_inner to l.0 races ... writes s[0]" (the term read something the loop writes). */
#include <stdio.h>

void reduce_written(int n, const int b[40], int a[40], int w[40][4], double c[40],
                    long res[3])
{
  int s = 0;
  double t = 1.0;
#pragma translate kernel same_iteration
#pragma translate split_iname("i", 16, inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    a[i] = b[i] * 2;
    s = s + a[i];
  }
#pragma translate end kernel
  res[0] = s;
  s = 0;
#pragma translate kernel inner_loop_first
#pragma translate split_iname("i", 8, inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < 4; j++)
      w[i][j] = b[i] * j;
    c[i] = 0.5 * b[i];
    s = s + w[i][0] + w[i][3];
    t = t * (c[i] > 0 ? 2.0 : 0.5);
  }
#pragma translate end kernel
  res[1] = s;
  res[2] = (long) (t * 1024);
}

int main(void)
{
  static int b[40], a[40], w[40][4];
  static double c[40];
  static long res[3];
  for (int q = 0; q < 40; q++)
    b[q] = (q * 7 + 3) % 17 - 8;
  reduce_written(37, b, a, w, c, res);
  printf("%ld %ld %ld\n", res[0], res[1], res[2]);
  reduce_written(5, b, a, w, c, res);
  for (int q = 0; q < 40; q++)
    printf("%d %d %d %a\n", a[q], w[q][0], w[q][3], c[q]);
  printf("%ld %ld %ld\n", res[0], res[1], res[2]);
  return 0;
}
