/* translate-test: translate=--directives=openmp */
/* float vs double promotions, abs vs fabs of doubles, / and % of negatives, >> of negatives,
   (int) of negative floats, fminf/fmaxf with NaN, ternary chains, const globals, enums */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define N 1000
enum { NB = 8, SHIFT = 3, BIAS = -17 };
enum phase { SOLID, LIQUID = 4, GAS };
static const double coef[NB] = {0.5, -0.25, 0.125, 1e-3, -7.0, 3.25, 0.1, 2.0};
static const int off = -5;
static float f[N], g[N], h[N], q[N];
static double d[N], e[N], r[N];
static int k[N], m[N], s[N], t[N];
int main(void)
{
  for (int i = 0; i < N; i++) {
    f[i] = (i - 500) * 0.37f;
    d[i] = (i - 480) * 0.0113;
    k[i] = (i * 7919) % 2001 - 1000;
  }
  f[17] = NAN; d[23] = -0.0; f[31] = -INFINITY;
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    float x = f[i];
    g[i] = x * 0.1;                 /* double product, rounded to float */
    h[i] = x * 0.1f + x / 3;        /* float arithmetic */
    q[i] = fminf(x, 2.5f) + fmaxf(x, -1.0f) - fmaxf(NAN, x);
    e[i] = abs(d[i] * 100) + fabs(d[i]) * coef[i % NB];   /* abs truncates to int */
    r[i] = (int)(d[i] * 37.5) + (long)(f[i] * -2.5f) + floor(d[i] * 3) + trunc(f[i]);
    m[i] = k[i] / 7 + k[i] % 7 * 100 + (k[i] >> SHIFT) + (k[i] / -3) + (k[i] % -3);
    s[i] = k[i] < BIAS ? SOLID : k[i] < 0 ? LIQUID : k[i] < 300 ? GAS : k[i] % NB + off;
    t[i] = (k[i] & 7) == 3 ? -k[i] >> 1 : (unsigned)k[i] >> 28;
  }
  double acc = 0;
  long ia = 0;
  for (int i = 0; i < N; i++) {
    acc += (isnan(g[i]) ? 1 : g[i]) + (isnan(h[i]) ? 2 : h[i]) + (isnan(q[i]) ? 3 : q[i]) * 7
        + e[i] + (isnan(r[i]) ? 5 : r[i]);
    ia = ia * 31 + m[i] + s[i] * 1000 + t[i];
  }
  printf("%a %ld %a %a %a\n", acc, ia, g[7], h[7], q[17]);
  return 0;
}
