#include <stdio.h>
#include <math.h>
#define N 200
static void ints(int n, const int *a, unsigned *u, int *r) {
#pragma translate kernel ints_k
  for (int i = 0; i < n; i++) {
    u[i] = (unsigned)a[i] * 4000000000u + 7u;
    r[4*i] = a[i] / 3 + a[i] % 5;
    r[4*i+1] = (a[i] << 3) >> 2;
    r[4*i+2] = (-a[i]) % (i + 1 - 50 == 0 ? 1 : i + 1 - 50);
    r[4*i+3] = (int)(a[i] * 0.37) + (int)(-2.7 * (i % 3));
  }
#pragma translate end kernel
}
static void flts(int n, const float *x, const double *y, float *z, double *w) {
#pragma translate kernel flts_k
  for (int i = 0; i < n; i++) {
    z[i] = 1.1f * x[i] + fabsf(x[i] - 0.3f) + 0.1 * x[i];
    w[i] = (float)y[i] * 1.0f + x[i] / 3 + sqrtf(fabsf(x[i]));
  }
#pragma translate end kernel
}
static void decr(int n, double *a) {
#pragma translate kernel decr_k
  for (int i = n - 1; i > 0; i -= 3) a[i] = a[i] * 2 - i;
#pragma translate end kernel
}
static void dep(int n, double *a) {
#pragma translate kernel dep_k
  for (int i = 1; i < n; i++) a[i] += a[i - 1];
#pragma translate end kernel
}
static void alias(int n, double *restrict p, double *restrict q) {
#pragma translate kernel alias_k
  for (int i = 0; i < n; i++) p[i] = q[i] + 1;
#pragma translate end kernel
}
static void dec2(int n, double *a) {
#pragma translate kernel dec2_k
  for (int i = n - 1; i >= 0; i--) a[i] = a[i] + 0.5 * i;
#pragma translate end kernel
}
int main(void) {
  static int a[N], r[4*N]; static unsigned u[N]; static float x[N], z[N]; static double y[N], w[N], d[N + 1];
  for (int i = 0; i < N; i++) { a[i] = (i * 7919) % 301 - 150; x[i] = i * 0.013f - 1; y[i] = sin(i * 0.1); d[i] = i % 7; }
  ints(N, a, u, r);
  unsigned long long su = 0; long long sr = 0;
  for (int i = 0; i < N; i++) su = su * 31 + u[i];
  for (int i = 0; i < 4*N; i++) sr = sr * 31 + r[i];
  printf("%llu %lld\n", su, sr);
  flts(N, x, y, z, w);
  double s1 = 0, s2 = 0; for (int i = 0; i < N; i++) { s1 += z[i] * (i + 1); s2 += w[i] * (i + 1); }
  printf("%a %a\n", s1, s2);
  decr(N, d); dep(N, d); dec2(N, d);
  s1 = 0; for (int i = 0; i < N; i++) s1 += d[i] * (i % 11); printf("%a\n", s1);
  alias(N - 1, d + 1, w); s1 = 0; for (int i = 0; i < N; i++) s1 += d[i] * (i % 11); printf("%a\n", s1);
  return 0;
}
