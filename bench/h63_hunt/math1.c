/* translate-test: translate=--directives=openmp */
/* math.h in parallel loops: double functions of float arguments, rounding functions,
   NaN/inf/-0.0 propagation, fmin/fmax with NaN, pow with an int exponent. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <math.h>
#include <float.h>
#include <stdlib.h>
#define N 512
static float f[N], o1[N], o2[N], o3[N];
static double x[N], y[N], z[N], w[N];
static int k[N];
static long lr[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    f[i] = (float)((i - 256) * 0.173);
    x[i] = (i - 256) * 0.731 + 0.5;
    if (i % 50 == 0) x[i] = NAN;
    if (i % 77 == 0) x[i] = -0.0;
    if (i == 100) x[i] = INFINITY;
    if (i == 101) x[i] = -INFINITY;
    if (i == 102) f[i] = 1e-40f;   /* denormal */
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    o1[i] = sqrt(f[i] * f[i] + 1) + sqrtf(f[i] + 300);
    o2[i] = fabs(f[i]) * FLT_EPSILON * 1e6 + M_PI * f[i] + exp(f[i] / 100);
    o3[i] = powf(f[i], 2) + pow(f[i], 3) + cbrt(f[i]) + hypot(f[i], 2.5f);
    y[i] = round(x[i]) + floor(x[i]) * 2 + ceil(x[i]) * 3 + trunc(x[i]) * 5 + rint(x[i]) * 7;
    z[i] = fmod(x[i], 3.3) + remainder(x[i], 2.5) + copysign(1.0, x[i]) + fmin(x[i], 1.0) + fmax(x[i], -1.0);
    w[i] = x[i] * 0.0 + 1.0 / x[i] + atan2(x[i], -1.0) + fdim(x[i], 2.0) + signbit(x[i]) + isnan(x[i]) * 10 + isinf(x[i]) * 100;
    k[i] = abs((int)f[i]) + (int)(x[i] == x[i]) + (int)lround(f[i]) + ilogb(f[i] + 1000);
    lr[i] = lrint(f[i] * 3.7) + labs((long)(f[i] * 1000)) + llabs((long long)f[i] * 3);
  }
  for (int i = 0; i < N; i += 11)
    printf("%d %a %a %a %a %a %a %d %ld\n", i, o1[i], o2[i], o3[i], y[i], z[i], w[i], k[i], lr[i]);
  return 0;
}
