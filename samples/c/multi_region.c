/* Several regions in one file, with helper functions that stay on the host untouched.
 *
 * Regions without a name are called <function>_<k> (k counts the function's regions from 0).
 * `total` is written by the second region and read after it, so it is passed by address and
 * its value comes back (the region runs sequentially: a sum is a reduction).
 */
#include <stdio.h>

#define N 300

static double a[N], b[N], c[N];

static double weight(int i)            /* a host helper: never translated */
{
  return 1.0 + (i % 4) * 0.25;
}

double process(int n, double scale)
{
  double total = 0.0;
#pragma translate kernel
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    c[i] = scale * a[i] + b[i];
#pragma translate end kernel

#pragma translate kernel
  for (int i = 0; i < n; i++)
    total += c[i];
#pragma translate end kernel

#pragma translate kernel smooth
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  for (int i = 1; i < n - 1; i++)
    b[i] = (c[i - 1] + 2.0 * c[i] + c[i + 1]) * 0.25;
#pragma translate end kernel
  return total;
}

int main(void)
{
  double t, sum = 0.0;
  for (int i = 0; i < N; i++) {
    a[i] = weight(i) * i;
    b[i] = 0.5 * (N - i);
  }
  t = process(N, 2.0);
  for (int i = 0; i < N; i++)
    sum += b[i];
  printf("total %.17g checksum %.17g\n", t, sum);
  printf("b[1] %.17g b[%d] %.17g\n", b[1], N - 2, b[N - 2]);
  return 0;
}
