/* Branches, the ternary operator, math.h functions and C integer semantics in a kernel.
 *
 * if/else become statement predicates; `?:` stays a conditional expression; sqrt, exp, fabs,
 * pow, fmin/fmax and their float forms (sqrtf, ...) become OpenCL built-ins computing in the
 * same precision as C; integer / and % truncate toward zero as in C, also for negative values;
 * unsigned arithmetic wraps around.
 */
#include <math.h>
#include <stdio.h>

#define N 200

static double x[N], y[N];
static float f[N];
static int q[N], r[N];
static unsigned int h[N];

void compute(int n, double lo, double hi)
{
#pragma translate kernel
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    double v = x[i];
    if (v < 0.0) {
      y[i] = -sqrt(-v) + exp(v / 10.0);
    } else if (v < 2.5) {
      y[i] = pow(v, 1.5) - fabs(v - 1.0);
    } else {
      y[i] = fmin(fmax(v, lo), hi) + log(v) * cos(v);
    }
    f[i] = sqrtf((float)(i + 1)) * 0.5f + fabsf((float)v);
    y[i] += (i % 3 == 0) ? floor(v) : ceil(v);
    q[i] = (i - 100) / 7;
    r[i] = (i - 100) % 7;
    h[i] = (unsigned int)i * 2654435761u + 12345u;
  }
#pragma translate end kernel
}

int main(void)
{
  double sum = 0.0;
  long long isum = 0;
  for (int i = 0; i < N; i++)
    x[i] = (i - 60) * 0.0625;
  compute(N, 1.0, 4.0);
  for (int i = 0; i < N; i++) {
    sum += y[i] + f[i];
    isum += q[i] * 3 + r[i] + (long long)(h[i] % 1000u);
  }
  printf("checksum %.17g %lld\n", sum, isum);
  printf("y[3] %.17g y[150] %.17g f[7] %.9g h[199] %u\n", y[3], y[150], f[7], h[199]);
  return 0;
}
