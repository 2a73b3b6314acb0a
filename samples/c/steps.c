/* Loops that do not count up by one: a decreasing loop and a stepped loop.
 *
 * The translator normalises them to 0-based trip counters named after the loop variable
 * (i stands for n-1-i' and k for 3 + 4*k'), so the iteration order of the original is kept.
 * The first region is a recurrence and must run in order (no mapping); the second is
 * independent across iterations and is mapped onto work items.
 */
#include <stdio.h>

#define N 101

static double a[N], b[N];

void backward(int n)
{
#pragma translate kernel backward
  for (int i = n - 2; i >= 0; i--)
    a[i] = a[i] + 0.5 * a[i + 1];
#pragma translate end kernel
}

void every_fourth(int n, double s)
{
#pragma translate kernel every_fourth
#pragma translate split_iname("k", 8, outer_tag="g.0", inner_tag="l.0")
  for (int k = 3; k < n; k += 4)
    b[k] = s * b[k] + k;
#pragma translate end kernel
}

int main(void)
{
  double sa = 0.0, sb = 0.0;
  for (int i = 0; i < N; i++) {
    a[i] = (i % 5) * 0.125;
    b[i] = i;
  }
  backward(N);
  every_fourth(N, -2.0);
  for (int i = 0; i < N; i++) {
    sa += a[i];
    sb += b[i];
  }
  printf("checksums %.17g %.17g\n", sa, sb);
  printf("a[0] %.17g b[99] %.17g b[100] %.17g\n", a[0], b[99], b[100]);
  return 0;
}
