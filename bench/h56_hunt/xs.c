/* translate-test: translate=--directives=openmp */
/* XSBench-like lookups: an energy grid searched per lookup (binary search written as a
   bounded for loop in a static helper: lo/hi narrowed by data), interpolation between grid
   points, a per-material sum over nuclides with concentrations, a verification hash. */
#include <stdio.h>
#include <stdint.h>
#define NGRID 512
#define NNUC 12
#define NMAT 4
#define NLOOK 3000
static double egrid[NGRID], xs[NNUC][NGRID];
static int mats[NMAT][NNUC], nnuc[NMAT];
static double conc[NMAT][NNUC];
static double lookups_e[NLOOK];
static int lookups_m[NLOOK];
static double macro[NLOOK];
static unsigned long vhash[NLOOK];

static int grid_search(double quarry, const double *restrict grid, int n)
{
  int lo = 0, hi = n - 1;
  for (int it = 0; it < 10; it++) {
    int mid = lo + (hi - lo) / 2;
    if (hi - lo > 1) {
      if (grid[mid] > quarry) hi = mid;
      else lo = mid;
    }
  }
  return lo;
}

int main(void)
{
  for (int g = 0; g < NGRID; g++) egrid[g] = (double)g * g / (NGRID * (double)NGRID);
  for (int k = 0; k < NNUC; k++)
    for (int g = 0; g < NGRID; g++) xs[k][g] = 1.0 + ((k * 31 + g * 17) % 101) / 50.0;
  for (int m = 0; m < NMAT; m++) {
    nnuc[m] = 3 + m * 3;
    for (int k = 0; k < NNUC; k++) { mats[m][k] = (m * 5 + k * 7) % NNUC; conc[m][k] = 0.1 * (k + 1); }
  }
  uint64_t seed = 42;
  for (int l = 0; l < NLOOK; l++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    lookups_e[l] = (double)(seed >> 11) / 9007199254740992.0 * 0.999;
    lookups_m[l] = (int)((seed >> 40) % NMAT);
  }
#pragma omp parallel for schedule(dynamic, 100)
  for (int l = 0; l < NLOOK; l++) {
    double e = lookups_e[l];
    int m = lookups_m[l];
    int g = grid_search(e, egrid, NGRID);
    double f = (egrid[g + 1] - e) / (egrid[g + 1] - egrid[g]);
    double total = 0.0;
    for (int j = 0; j < NNUC; j++) {
      if (j < nnuc[m]) {
        int nuc = mats[m][j];
        double x = xs[nuc][g + 1] - f * (xs[nuc][g + 1] - xs[nuc][g]);
        total += x * conc[m][j];
      }
    }
    macro[l] = total;
    vhash[l] = (unsigned long)(total * 1000.0) * 2654435761ul + (unsigned long)g;
  }
  double s = 0;
  unsigned long h = 0;
  for (int l = 0; l < NLOOK; l++) { s += macro[l]; h ^= vhash[l] + (h << 6) + (h >> 2); }
  printf("%.17g %lu %.17g\n", s, h, macro[17]);
  return 0;
}
