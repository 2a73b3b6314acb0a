/* translate-test: translate=--directives=openmp */
/* Signed/unsigned comparisons, negative % and /, shifts of negatives, -1 < 0u. */
#include <stdio.h>
#define N 777
static int a[N], c1[N], c2[N], c3[N], c4[N];
static unsigned ua[N];
static long long ll[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    a[i] = (i * 7919) % 2001 - 1000;
    ua[i] = (unsigned)(i * 3) ;
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int x = a[i];
    c1[i] = (x < ua[i]) + 2 * (x < 0u) + 4 * (-1 < 0u) + 8 * (x > 5u);
    c2[i] = x % 7 + (x / 7) * 100 + (x >> 2) * 10000;
    c3[i] = (x % -3) + (-x / 4) + ((unsigned)x >> 28);
    c4[i] = (x == ua[i]) + (x != 3) * 2 + ((x & 5) == 1) * 4 + !x * 8 + (x && ua[i]) * 16;
    ll[i] = (long long)x * 4000000000LL / 3 + (ua[i] - 5u);   /* unsigned wrap then to long long */
  }
  long long s = 0;
  for (int i = 0; i < N; i++)
    s += c1[i] * 1 + c2[i] * 3 + c3[i] * 5 + c4[i] * 7 + ll[i] % 1000000007;
  printf("%lld %d %d %d %d %lld\n", s, c1[0], c2[1], c3[2], c4[3], ll[4]);
  return 0;
}
