/* translate-test: translate=--directives=openmp */
/* pow with an exponent of exactly 2 (and 1, -1, 3) over 2^22 random doubles and floats
   (all exponents): gcc -O1 folds pow(x, 2.0) to x*x, the correctly rounded square. */
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#define N 4194304
static double x[N], y2[N], y3[N], ym[N], y1[N];
static float f[N], g2[N], gd[N], g3[N];
static uint64_t st = 88172645463325252ull;
static uint64_t rnd(void) { st ^= st << 13; st ^= st >> 7; st ^= st << 17; return st; }
int main(void)
{
  for (int i = 0; i < N; i++) {
    uint64_t b = rnd();
    memcpy(&x[i], &b, 8);
    uint32_t c = (uint32_t)(b >> 17);
    memcpy(&f[i], &c, 4);
    if (isnan(x[i])) x[i] = 1.5;
    if (isnan(f[i])) f[i] = 2.5f;
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    y2[i] = pow(x[i], 2.0);
    y3[i] = pow(x[i], 3.0) * 0.0 + pow(x[i], 1.0);
    ym[i] = pow(x[i], -1.0);
    g2[i] = powf(f[i], 2.0f);
    gd[i] = pow(f[i], 2.0);
    g3[i] = (float)pow((double)f[i], 2.0);
  }
  long d2 = 0, dm = 0, df = 0, dd = 0, d1 = 0;
  uint64_t h = 0;
  for (int i = 0; i < N; i++) {
    double sq = x[i] * x[i], inv = 1.0 / x[i];
    float fs = f[i] * f[i];
    d2 += memcmp(&y2[i], &sq, 8) != 0;
    dm += memcmp(&ym[i], &inv, 8) != 0;
    df += memcmp(&g2[i], &fs, 4) != 0;
    dd += memcmp(&gd[i], &fs, 4) != 0 || memcmp(&g3[i], &fs, 4) != 0;
    d1 += !(y3[i] == x[i] || isnan(y3[i]));
    uint64_t b; memcpy(&b, &y2[i], 8); h = h * 31 + b;
    uint32_t c; memcpy(&c, &g2[i], 4); h = h * 31 + c;
  }
  printf("differ from x*x: double %ld float %ld float-as-double %ld; 1/x %ld; x^1 %ld; hash %llx\n",
         d2, df, dd, dm, d1, (unsigned long long)h);
  return 0;
}
