/* translate-test: translate=--directives=openmp */
/* kmeans-like membership with fminf/fmaxf and NaN features, argmin with ties, float
   distances accumulated in float, x * 0.5 with float x (a double product) */
#include <math.h>
#include <stdio.h>
#define NP 3000
#define NF 5
#define NC 7
static float feat[NP][NF], cent[NC][NF], best[NP], lo[NP], hi[NP];
static int member[NP];
int main(void)
{
  for (int i = 0; i < NP; i++)
    for (int f = 0; f < NF; f++) feat[i][f] = ((i * 13 + f * 7) % 29) * 0.25f - 3.0f;
  for (int c = 0; c < NC; c++)
    for (int f = 0; f < NF; f++) cent[c][f] = ((c * 5 + f * 3) % 11) * 0.5f - 2.0f;
  feat[10][2] = NAN; feat[20][0] = NAN; feat[30][4] = -INFINITY;
#pragma omp parallel for
  for (int i = 0; i < NP; i++) {
    int idx = 0;
    float mind = INFINITY, l = INFINITY, h = -INFINITY;
    for (int c = 0; c < NC; c++) {
      float d = 0.0f;
      for (int f = 0; f < NF; f++) {
        float t = feat[i][f] - cent[c][f];
        d += t * t * 0.5;
      }
      if (d < mind) { mind = d; idx = c; }
      l = fminf(l, d);
      h = fmaxf(h, d);
    }
    member[i] = idx;
    best[i] = mind;
    lo[i] = l;
    hi[i] = h;
  }
  long m = 0;
  double s = 0;
  for (int i = 0; i < NP; i++) {
    m = m * 3 + member[i];
    s += (isinf(best[i]) ? 1e3 : best[i]) + (isnan(lo[i]) ? 7 : lo[i]) + (isinf(hi[i]) ? 9 : hi[i]);
  }
  printf("%ld %a %a %a\n", m, s, lo[10], hi[10]);
  return 0;
}
