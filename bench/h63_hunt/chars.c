/* translate-test: translate=--directives=openmp */
/* Character constants and char arithmetic: '\xff' and '\377' are -1 where char is signed
   (x86-64), escapes, char comparisons, signed char wrap, unsigned long long against long. */
#include <stdio.h>
#define N 256
static char s[N];
static signed char sc[N];
static int o1[N], o2[N];
static unsigned long long o3[N];

int main(void)
{
  for (int i = 0; i < N; i++) { s[i] = (char)(i * 7); sc[i] = (signed char)(i * 3); }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    o1[i] = (s[i] == '\xff') + (s[i] < '\x80') * 2 + ('\377' + '\t') * 4 + (s[i] > 'a') * 8 + '\x7f' + '\0' + '\\' + '\'';
    sc[i] = sc[i] * 2 + '\xf0';
    o2[i] = (s[i] >> 1) + (s[i] & '\xf0') + -7 % 3u + (-1L < 1ULL) * 1000;
    o3[i] = (unsigned long long)o1[i] * -3LL + (i - 100) * 5000000000ULL;
  }
  long long t = 0;
  for (int i = 0; i < N; i++) t += o1[i] * 3 + sc[i] * 5 + o2[i] * 7 + (long long)(o3[i] % 1000003);
  printf("%lld %d %d %d %llu\n", t, o1[5], sc[7], o2[9], o3[11]);
  return 0;
}
