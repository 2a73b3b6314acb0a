/* translate-test: translate=--directives=openmp */
/* Constants and their folding: negative division and remainder of literals, hex floats,
   <float.h>/<limits.h> macros, character constants, const globals, enum values, unsigned
   ternaries, float literals without f stored to float, float/double comparisons. */
#include <stdio.h>
#include <float.h>
#include <limits.h>
#include <stdint.h>
#define N 300
#define SQ(x) ((x) * (x))
enum { K1 = -7, K2 = 2 };
static const double coef[3] = {0.25, -1.5, 3.0};
static const int shift = 3;
static const float third = 1.0f / 3.0f;
static int o1[N], o2[N];
static unsigned o3[N];
static float f[N], o4[N];
static double o5[N];
static long long o6[N];

int main(void)
{
  for (int i = 0; i < N; i++) f[i] = (float)(i * 0.001 - 0.1);
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    o1[i] = (-7) / 2 + (-7) % 3 + 7 % -3 + K1 / K2 + K1 % K2 + (i - 150) / K2 + (i - 150) % K2 * 10;
    o2[i] = 'a' + '\n' * 2 + (i % 26 + 'A') + SQ(i - 7) + (i << shift) + (INT_MAX / (i + 1)) + (INT_MIN + i) % 1000;
    o3[i] = (i & 1 ? -1 : 0u) + (unsigned)i / -2 + UINT_MAX / (i + 3) + (unsigned)i % 7u + ~(unsigned char)i;
    float x = 0.1;
    o4[i] = x + (f[i] == 0.1) + (f[i] < 0.1) * 2 + (f[i] < 0.1f) * 4 + 0x1.8p-3 + 0x1p4f * f[i] + FLT_EPSILON + FLT_MIN * 1e30f + third * f[i];
    o5[i] = coef[i % 3] * f[i] + DBL_EPSILON * i + DBL_MAX / 1e300 + FLT_MAX + 1e-310 * i + 5e-324;
    o6[i] = LLONG_MIN / (i + 2) + LLONG_MAX % (i + 11) + INT64_C(1) * i * UINT32_MAX + (1LL << 40) + (long long)(uint64_t)-1 / 3;
  }
  long long s = 0;
  double t = 0;
  for (int i = 0; i < N; i++) {
    s += o1[i] * 3 + o2[i] * 5 + (long long)o3[i] * 7 + o6[i] % 1000003;
    t += o4[i] * 2 + o5[i];
  }
  printf("%lld %a %d %d %u %a %a %lld\n", s, t, o1[1], o2[2], o3[3], o4[4], o5[5], o6[6]);
  return 0;
}
