/* translate-test: translate=--directives=openmp translate=-Wno-error=directive-race */
/* scatters: transpose SpMV y[col[k]] += ..., permutation y[perm[i]] = x[i], histogram; the
   claims are false or unproven: each must keep its sequential meaning */
#include <stdio.h>
#define N 3000
static int col[4 * N], perm[N], bin[N];
static double val[4 * N], x[N], y[N], t[N];
static int hist[64];
int main(void)
{
  for (int i = 0; i < N; i++) {
    perm[i] = (i * 7) % N;
    bin[i] = (i * i) % 64;
    x[i] = i * 0.25;
    for (int k = 0; k < 4; k++) { col[4 * i + k] = (i + k * 11) % N; val[4 * i + k] = k + 1.0; }
  }
  perm[5] = perm[6];                   /* not a permutation */
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 4; k++)
      y[col[4 * i + k]] += val[4 * i + k] * x[i];
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    t[perm[i]] = x[i] + i;
#pragma omp parallel for
  for (int i = 0; i < N; i++)
    hist[bin[i]]++;
  double s = 0;
  for (int i = 0; i < N; i++) s += y[i] * (i % 7) + t[i];
  long h = 0;
  for (int b = 0; b < 64; b++) h = h * 3 + hist[b];
  printf("%.17g %ld\n", s, h);
  return 0;
}
