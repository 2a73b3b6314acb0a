/* translate-test: translate=--directives=openmp */
/* integer shapes of real codes: hashes with unsigned wrap and >> of signed, modular indexing
   of negatives ((i - k) % n + n) % n, int division rounding toward zero, char/short tables,
   long accumulations of int products, abs/labs, bit tricks */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#define N 4096
static int a[N], r[N], per[N];
static unsigned h[N];
static long l[N];
static short sh[N];
static const signed char tab[8] = {-3, 5, -128, 127, 0, -1, 64, -64};
int main(void)
{
  for (int i = 0; i < N; i++) a[i] = (i * 2654435761u) >> 7;
  for (int i = 0; i < N; i++) a[i] -= 1 << 23;
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    unsigned x = (unsigned)a[i];
    x ^= x >> 16; x *= 0x45d9f3bu; x ^= x >> 16;
    h[i] = x;
    r[i] = a[i] / 1000 + a[i] % 1000 + (a[i] >> 5) + abs(a[i] % 77) - (a[i] & -a[i]);
    per[i] = ((i - 37) % 100 + 100) % 100 + (-i / 7);
    l[i] = (long)a[i] * a[i] + labs((long)a[i] * 3000) + tab[i & 7] * (long)i;
    sh[i] = (short)(a[i] >> 3) + tab[(i >> 3) & 7];
  }
  unsigned long s = 0;
  for (int i = 0; i < N; i++) s = s * 1000003u + h[i] + (unsigned)r[i] + per[i] + l[i] + sh[i];
  printf("%lu\n", s);
  return 0;
}
