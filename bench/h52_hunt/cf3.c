/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <math.h>
#define N 257
static float x[N], y[N]; static double d[N]; static int k[N]; static unsigned u[N];
int main(void) {
  for (int i = 0; i < N; i++) { x[i] = (i - 128) * 0.173f; y[i] = 0; d[i] = (i - 100) * 1.37; k[i] = i * 2654435 - 300000000; u[i] = i * 2654435761u; }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    y[i] = 1.0f * x[i] + fabsf(x[i]) * 0.5f + (float)d[i] / 3 + fmaxf(x[i], -1.0f) + floorf(x[i]) + roundf(x[i]) + truncf(x[i]);
    d[i] = d[i] / -4 + fmod(d[i], -3.0) + copysign(1.0, -d[i]) + (double)(k[i] >> 5) + (double)(u[i] >> 5) + (k[i] % -9) + (k[i] / -9);
    k[i] = (int)(u[i] % 1000u) - (int)(u[i] / 7u) + (k[i] & 0xff) - (k[i] | 3) + (~k[i]);
    u[i] = (u[i] << 3) + (u[i] >> 29) - 5u;
  }
  double s = 0; unsigned long long h = 0;
  for (int i = 0; i < N; i++) { s += y[i] * (i + 1) + d[i]; h = h * 1099511628211ULL + (unsigned)k[i] + u[i]; }
  printf("%a %llu\n", s, h);
  return 0;
}
