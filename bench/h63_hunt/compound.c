/* translate-test: translate=--directives=openmp */
/* Compound assignment with conversion, ?: with mixed types, _Bool, comparisons as ints. */
#include <stdio.h>
#include <stdbool.h>
#define N 600
static float f[N], acc[N];
static double d[N];
static int iv[N], jv[N];
static bool bl[N];
static unsigned char uc[N];
static short ss[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    f[i] = (float)(i * 0.013 - 3.1);
    d[i] = i * 0.0071 - 2.2;
    iv[i] = i * 3 - 900;
    uc[i] = (unsigned char)(i * 7);
    ss[i] = (short)(i * 101);
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int m = iv[i];
    m += 0.7 * d[i];          /* computed in double, truncated */
    m *= 1.5;
    m /= 2.2f;
    float s = f[i];
    s += d[i];                /* double sum rounded to float */
    s *= d[i];
    s -= 1e-9;
    acc[i] = s;
    uc[i] += 200;             /* wraps */
    uc[i] >>= 1;
    ss[i] *= 3;               /* wraps on store (implementation-defined; gcc truncates) */
    bl[i] = d[i];             /* nonzero -> 1 */
    bool b2 = iv[i] & 4;
    jv[i] = m + (f[i] > 0 ? 1 : 0.5) * 4 + (b2 ? iv[i] : d[i]) + bl[i] + (iv[i] > 0) + (f[i] < d[i]) + (unsigned)(iv[i] < 0 ? -1 : 1) / 2;
  }
  long s = 0;
  double t = 0;
  for (int i = 0; i < N; i++) { s += jv[i] * 3 + uc[i] + ss[i] + bl[i]; t += acc[i]; }
  printf("%ld %a %d %d %d\n", s, t, jv[5], uc[7], ss[599]);
  return 0;
}
