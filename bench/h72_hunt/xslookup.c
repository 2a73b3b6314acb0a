/* translate-test: translate=--directives=openmp */
/* XSBench-like: per lookup a binary search on a sorted energy grid (a helper with a while
   loop), interpolation over nuclides of a material, a verification hash with unsigned long */
#include <stdio.h>
#define NG 512
#define NN 12
#define NL 4000
static double egrid[NN][NG], xs[NN][NG][3], conc[NN], out[NL][3], energy[NL];
static int mat_nuc[NL];
static unsigned long vhash[NL];
static inline int search(const double *restrict g, int n, double e)
{
  int lo = 0, hi = n - 1;
  for (int step = 0; step < 10; step++) {
    int mid = (lo + hi) / 2;
    if (g[mid] > e) hi = mid; else lo = mid;
  }
  return lo;
}
int main(void)
{
  for (int n = 0; n < NN; n++) {
    conc[n] = 0.1 + n * 0.05;
    for (int g = 0; g < NG; g++) {
      egrid[n][g] = (g + 0.3 * (n % 3)) / NG;
      for (int c = 0; c < 3; c++) xs[n][g][c] = ((n * 7 + g * 3 + c) % 19) * 0.1;
    }
  }
  unsigned long seed = 12345;
  for (int l = 0; l < NL; l++) {
    seed = seed * 6364136223846793005ul + 1442695040888963407ul;
    energy[l] = (seed >> 11) * (1.0 / 9007199254740992.0) * 0.99;
    mat_nuc[l] = 1 + (int)(seed >> 60) % NN;
  }
#pragma omp parallel for
  for (int l = 0; l < NL; l++) {
    double e = energy[l], m[3] = {0.0, 0.0, 0.0};
    for (int n = 0; n < mat_nuc[l]; n++) {
      int idx = search(egrid[n], NG, e);
      if (idx > NG - 2) idx = NG - 2;
      double f = (egrid[n][idx + 1] - e) / (egrid[n][idx + 1] - egrid[n][idx]);
      for (int c = 0; c < 3; c++)
        m[c] += conc[n] * (xs[n][idx + 1][c] - f * (xs[n][idx + 1][c] - xs[n][idx][c]));
    }
    unsigned long h = 0;
    for (int c = 0; c < 3; c++) {
      out[l][c] = m[c];
      h = h * 31u + (unsigned long)(m[c] * 1000.0);
    }
    vhash[l] = h % 999983ul;
  }
  unsigned long v = 0;
  double s = 0;
  for (int l = 0; l < NL; l++) { v += vhash[l]; s += out[l][0] + out[l][2] * 0.5; }
  printf("%lu %a\n", v, s);
  return 0;
}
