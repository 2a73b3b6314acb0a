/* translate-test: translate=--directives=openmp */
/* Atomic updates h80 left as written: bitwise |= &= ^= on 32- and 64-bit integers, and
   OpenMP 5.1 atomic compare for an integer maximum (if form) and minimum (ternary form);
   a float compare keeps its loop sequential (fmax differs from the comparison on NaN). */
#include <stdio.h>
#define N 20000
#define B 64

static unsigned int mask[B];
static long long parity[B];
static int keep[B];
static int best[B];
static long long lo[B];
static float fbest[B];
static int key[N], val[N];
static float fv[N];

int main(void)
{
  for (int i = 0; i < N; i++) {
    key[i] = (int)((i * 2654435761u) % 100003u);
    val[i] = (int)((i * 40503u) % 1000u) - 500;
    fv[i] = 0.001f * val[i];
  }
  for (int b = 0; b < B; b++) { keep[b] = -1; best[b] = -1000; lo[b] = 1000; fbest[b] = -1e30f; }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int b = key[i] % B;
#pragma omp atomic
    mask[b] |= 1u << (key[i] % 32);
#pragma omp atomic update
    parity[b] ^= (long long)key[i] << 20;
#pragma omp atomic
    keep[b] &= ~(1 << (val[i] & 15));
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    int b = key[i] % B;
    long long v = val[i];
#pragma omp atomic compare
    if (val[i] > best[b]) best[b] = val[i];
#pragma omp atomic compare
    lo[b] = v < lo[b] ? v : lo[b];
  }
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
#pragma omp atomic compare
    if (fv[i] > fbest[key[i] % B]) fbest[key[i] % B] = fv[i];
  }
  unsigned long long h = 0;
  for (int b = 0; b < B; b++)
    h = h * 31 + mask[b] + (unsigned long long)parity[b] * 7 + (unsigned)keep[b] * 3
        + (unsigned)best[b] * 5 + (unsigned long long)lo[b] * 11;
  printf("%llu %u %lld %d %d %lld %.6f\n", h, mask[3], parity[5], keep[7], best[9], lo[11],
         fbest[13]);
  return 0;
}
