/* translate-test: translate=--directives=openmp */
/* math.h with arguments of other types: abs of a double (converted to int), sqrt of an int,
   sqrtf of a double, pow with int arguments, ldexp/frexp, float classification. */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#define N 256
static double x[N], o1[N], o2[N];
static float xf[N], o3[N];
static int o4[N];
static long o5[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    x[i] = (i - 128) * 0.37;
    xf[i] = (float)((i - 100) * 1.3e-3);
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int e;
    o1[i] = abs(x[i]) + sqrt(i) + pow(2, i % 40) + pow(i, 2) + ldexp(1.0, i - 128) + fabs(i - 128);
    o2[i] = frexp(x[i], &e) + e + floor(i / 3) + ceil(i / 3.0) + trunc(-i / 7.0) + fmod(i, 7) + fmin(i, x[i]);
    o3[i] = sqrtf(x[i] * x[i]) + fabsf(x[i]) + floorf(x[i]) + powf(xf[i], 2) + fmaxf(xf[i], NAN) + copysignf(1.5f, xf[i]);
    o4[i] = abs(i - 128) % 17 + (int)round(x[i]) + (int)lround(xf[i] * 1000) + isnan(xf[i]) + isinf(x[i] / 0.0) * 2 + isfinite(xf[i]) * 4 + signbit(xf[i] - 0.01f) / 7 + (int)rint(x[i] * 0.5);
    o5[i] = labs((long)(x[i] * 1e6)) + llround(x[i] * 1e3) + (long)floor(x[i] * 100) + lrintf(xf[i] * 10000.5f);
  }
  for (int i = 0; i < N; i += 9)
    printf("%d %a %a %a %d %ld\n", i, o1[i], o2[i], o3[i], o4[i], o5[i]);
  return 0;
}
