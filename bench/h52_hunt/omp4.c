/* translate-test: rtol=1e-13 translate=--directives=openmp */
#include <stdio.h>
#define N 64
static double a[N][N], b[N][N], x[N * N], y[N * N];
static void stage(int n) {
  double t, last = -1; int li = -1, lj = -1;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) x[i] = i * 0.5;
#pragma omp for
    for (int i = 0; i < n; i++) y[i] = i * 2.0;
#pragma omp for collapse(2) lastprivate(last, li, lj) private(t)
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        t = a[i][j] * 2;
        b[i][j] = t + x[i] - y[j];
        last = t; li = i; lj = j;
      }
  }
  printf("%.17g %d %d\n", last, li, lj);
}
static void tri(int n) {
  double last = 0;
#pragma omp parallel for collapse(2) lastprivate(last)
  for (int i = 0; i < N; i++)
    for (int j = i; j < N; j++) { b[i][j] = a[j][i] - b[i][j]; last = b[i][j] * i; }
  printf("%.17g\n", last);
}
static void reds(int n) {
  double s = 100, p = 1; int o = 0, xo = 0, la = 1, lo = 0; double m = 1e300;
#pragma omp parallel for reduction(-:s) reduction(*:p) reduction(|:o) reduction(^:xo) reduction(&&:la) reduction(||:lo) reduction(min:m)
  for (int i = 0; i < n; i++) {
    s -= x[i]; p *= 1.0 + x[i] * 1e-4; o |= 1 << (i % 20); xo ^= i * 2654435; la = la && (x[i] >= 0); lo = lo || (x[i] > 1e9); m = m < x[i] - 7 ? m : x[i] - 7;
  }
  printf("%.17g %.17g %d %d %d %d %.17g\n", s, p, o, xo, la, lo, m);
}
static void inner(int n) {
#pragma omp for
  for (int i = 0; i < n; i++) { double v = x[i] * x[i]; int k = i % 3; y[i] = v + k; }
}
int main(void) {
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) { a[i][j] = i * 0.25 - j; b[i][j] = i + j; }
  stage(N);
  tri(N);
  reds(N * N);
  inner(N * N);
  double s = 0; for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) s += b[i][j] * (i + 2 * j); printf("%.17g\n", s);
  s = 0; for (int i = 0; i < N * N; i++) s += y[i] * (i % 17); printf("%.17g\n", s);
  return 0;
}
