/* A loop followed by a statement that uses its result: the prefix-free running update of y
 * is parallel, and `*last = y[n-1] + y[0]` must see the whole loop's writes.  In one launch
 * that would race (other work items may not have written y[n-1] yet); as two launches it
 * does not: the region is a parallel kernel followed by a one-work-item kernel. */
#include <stdio.h>

#define N 1000

static double x[N], y[N];

void update(int n, double a, double *last)
{
#pragma translate kernel update
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i] * 0.5;
  *last = y[n - 1] + y[0];
#pragma translate end kernel
}

int main(void)
{
  double last = 0.0, s = 0.0;
  for (int i = 0; i < N; i++) {
    x[i] = (i % 13) * 0.75;
    y[i] = (i % 7) - 3.0;
  }
  update(N, 1.25, &last);
  update(N, -0.5, &last);
  for (int i = 0; i < N; i++)
    s += y[i];
  printf("last %.17g\nsum %.17g\n", last, s);
  return 0;
}
