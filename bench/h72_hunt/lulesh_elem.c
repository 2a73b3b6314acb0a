/* translate-test: translate=--directives=openmp */
/* LULESH-like element loops: gathers of 8 nodes through nodelist, local arrays filled by
   helpers taking arrays, a volume per element, a min dt reduction, force scatter done per
   node over an element-corner list (no scatter race) */
#include <math.h>
#include <stdio.h>
#define EDGE 9
#define NE (EDGE * EDGE * EDGE)
#define NNODE ((EDGE + 1) * (EDGE + 1) * (EDGE + 1))
typedef double Real_t;
typedef int Index_t;
static Real_t x[NNODE], y[NNODE], z[NNODE], fx[NNODE], vol[NE], ss[NE], ef[NE][8];
static Index_t nodelist[8 * NE], ncorner[NNODE + 1], corners[8 * NE];
static inline void collect(const Index_t *restrict nl, const Real_t *restrict src,
                           Real_t loc[8])
{
  for (int k = 0; k < 8; k++) loc[k] = src[nl[k]];
}
static inline Real_t hexvol(const Real_t lx[8], const Real_t ly[8], const Real_t lz[8])
{
  Real_t dx = (lx[1] + lx[2] + lx[5] + lx[6]) - (lx[0] + lx[3] + lx[4] + lx[7]);
  Real_t dy = (ly[2] + ly[3] + ly[6] + ly[7]) - (ly[0] + ly[1] + ly[4] + ly[5]);
  Real_t dz = (lz[4] + lz[5] + lz[6] + lz[7]) - (lz[0] + lz[1] + lz[2] + lz[3]);
  return dx * dy * dz * (1.0 / 64.0);
}
int main(void)
{
  const int np = EDGE + 1;
  for (int k = 0; k < np; k++) for (int j = 0; j < np; j++) for (int i = 0; i < np; i++) {
    int n = (k * np + j) * np + i;
    x[n] = i * 1.125 + 0.01 * ((j * k) % 3); y[n] = j * 1.0625; z[n] = k + 0.003 * i;
  }
  for (int k = 0; k < EDGE; k++) for (int j = 0; j < EDGE; j++) for (int i = 0; i < EDGE; i++) {
    int e = (k * EDGE + j) * EDGE + i, n0 = (k * np + j) * np + i;
    int c[8] = {n0, n0 + 1, n0 + np + 1, n0 + np, n0 + np * np, n0 + np * np + 1,
                n0 + np * np + np + 1, n0 + np * np + np};
    for (int q = 0; q < 8; q++) nodelist[8 * e + q] = c[q];
  }
  int cnt = 0;
  for (int n = 0; n < NNODE; n++) {
    ncorner[n] = cnt;
    for (int e = 0; e < NE; e++) for (int q = 0; q < 8; q++)
      if (nodelist[8 * e + q] == n) corners[cnt++] = 8 * e + q;
  }
  ncorner[NNODE] = cnt;
  Real_t dtmin = 1e20;
#pragma omp parallel for reduction(min:dtmin)
  for (Index_t e = 0; e < NE; e++) {
    Real_t lx[8], ly[8], lz[8];
    collect(&nodelist[8 * e], x, lx);
    collect(&nodelist[8 * e], y, ly);
    collect(&nodelist[8 * e], z, lz);
    Real_t v = hexvol(lx, ly, lz);
    vol[e] = v;
    ss[e] = sqrt(fabs(v)) * 1.4;
    for (int q = 0; q < 8; q++) ef[e][q] = (lx[q] - lx[(q + 1) & 7]) * v;
    Real_t dt = cbrt(fabs(v)) / (ss[e] + 1e-12);
    dtmin = dt < dtmin ? dt : dtmin;
  }
#pragma omp parallel for
  for (Index_t n = 0; n < NNODE; n++) {
    Real_t f = 0.0;
    for (Index_t c = ncorner[n]; c < ncorner[n + 1]; c++)
      f += ef[corners[c] / 8][corners[c] % 8];
    fx[n] = f;
  }
  Real_t s = 0;
  for (int e = 0; e < NE; e++) s += vol[e] * (e % 5) + ss[e];
  for (int n = 0; n < NNODE; n++) s += fx[n] * (n % 3);
  printf("%a %a\n", s, dtmin);
  return 0;
}
