/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 1000
static double x[N], y[N], z[N];
static void lp(int n, double *t, int *k) {
  double tt = 0; int kk = 0;
#pragma omp parallel for lastprivate(tt, kk)
  for (int i = 0; i < n; i++) { tt = x[i] * 3; kk = i - 7; y[i] = tt * kk; }
  *t = tt; *k = kk;
}
static void dec(int n) {
#pragma omp parallel for
  for (int i = n - 1; i >= 0; i -= 2) z[i] = x[i] * 2;
}
static void neq(int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) { int q = i / 3 - 100; z[i] += (double)(q % 7) + (q / 4); }
}
static void reds(int n, double *s, double *mx, int *ia, int *ib) {
  double ss = 0, m = -1e300; int a = 0, b = -1;
#pragma omp parallel for reduction(+:ss,a) reduction(max:m) reduction(&:b)
  for (int i = 0; i < n; i++) { ss += x[i]; a += i % 5 - 2; m = m > x[i] ? m : x[i]; b &= (i % 13) | 0x7f00; }
  *s = ss; *mx = m; *ia = a; *ib = b;
}
static void tri(int n, double a[40][40]) {
#pragma omp parallel for collapse(2)
  for (int i = 0; i < 40; i++)
    for (int j = 0; j <= i; j++) a[i][j] += i * 100 + j;
}
static void ifc(int n, int big) {
#pragma omp parallel for simd if(big) schedule(dynamic, 4)
  for (int i = 0; i < n; i++) y[i] = x[i] + big;
}
int main(void) {
  static double a[40][40];
  for (int i = 0; i < N; i++) { x[i] = (i * 37 % 101) / 7.0 - 5; z[i] = i; }
  double t, s, mx; int k, ia, ib;
  lp(N, &t, &k); printf("%.17g %d %.17g\n", t, k, y[N-1] + y[3]);
  dec(N); neq(N); double zs = 0; for (int i = 0; i < N; i++) zs += z[i]; printf("%.17g\n", zs);
  reds(N, &s, &mx, &ia, &ib); printf("%.17g %.17g %d %d\n", s, mx, ia, ib);
  for (int i = 0; i < 40; i++) for (int j = 0; j < 40; j++) a[i][j] = i - j * 0.5;
  tri(40, a); s = 0; for (int i = 0; i < 40; i++) for (int j = 0; j < 40; j++) s += a[i][j] * (i + 1) * (j + 3); printf("%.17g\n", s);
  ifc(N, 0); printf("%.17g\n", y[5]); ifc(N, 3); printf("%.17g\n", y[5]);
  return 0;
}
