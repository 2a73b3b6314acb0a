/* translate-test: translate=--directives=openmp */
/* Usual arithmetic conversions inside parallel loops: float times a double constant is
   computed in double, int/int truncates, char/short/uint8_t promote to int. */
#include <stdio.h>
#include <stdint.h>
#define N 1000
static float f[N], g[N], h[N];
static double d[N];
static int a[N], b[N], r1[N], r2[N], r3[N];
static uint8_t p[N], q[N], s8[N];
static short sh[N];
static signed char sc[N];
static unsigned u[N];
static long lg[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    f[i] = (float)(i * 0.37 - 101.3);
    a[i] = i * 7 - 3500;
    b[i] = (i % 13) - 6;
    if (b[i] == 0) b[i] = 5;
    p[i] = (uint8_t)(i * 31);
    q[i] = (uint8_t)(i * 17 + 3);
    sh[i] = (short)(i * 97 - 30000);
    sc[i] = (signed char)(i * 11);
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    g[i] = f[i] * 1.1;            /* double product rounded to float */
    h[i] = f[i] * 1.1f;           /* float product */
    d[i] = f[i] / 3 + a[i] / b[i] + a[i] % b[i];
    r1[i] = a[i] / b[i] * 1.5;    /* int/int, then double */
    r2[i] = (p[i] + q[i]) / 2 + (p[i] * q[i] >> 8);   /* promoted to int */
    s8[i] = p[i] + q[i];          /* wraps on store */
    r3[i] = sh[i] * sh[i] / 7 + sc[i] * 3 - (unsigned char)sc[i];
    u[i] = (unsigned)a[i] * 2654435761u;   /* unsigned wrap */
    lg[i] = (long)a[i] * a[i] * a[i];
  }
  double t = 0;
  long s = 0;
  for (int i = 0; i < N; i++) {
    t += g[i] * 3 + h[i] * 5 + d[i] * 7;
    s += r1[i] + r2[i] * 3 + s8[i] * 5 + r3[i] * 11 + (long)u[i] + lg[i] % 1000003;
  }
  printf("%.17g %ld %.9g %.9g %u\n", t, s, g[17], h[17], u[999]);
  return 0;
}
