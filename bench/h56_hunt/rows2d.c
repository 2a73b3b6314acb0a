/* translate-test: rtol=1e-6 translate=--directives=openmp */
/* Rows of 2-D arrays passed to static inline helpers (`dist(feature[i], clusters[c], nf)`,
   as kmeans does), a local VLA sized by a `const int`, the helpers with loops inside. */
#include <stdio.h>
#include <float.h>
#define NP 500
#define NF 5
#define NC 4
static float feature[NP][NF], clusters[NC][NF];
static int member[NP];

static inline float dist(const float *pt, const float *ct, int nf)
{
  float ans = 0.0f;
  for (int k = 0; k < nf; k++) ans += (pt[k] - ct[k]) * (pt[k] - ct[k]);
  return ans;
}

static inline int nearest(const float *pt, float (*cs)[NF], int nc, int nf)
{
  int best = 0;
  float bd = FLT_MAX;
  for (int c = 0; c < nc; c++) {
    float d = dist(pt, cs[c], nf);
    if (d < bd) { bd = d; best = c; }
  }
  return best;
}

int main(void)
{
  const int n = 64;
  double v[n];
  for (int i = 0; i < n; i++) v[i] = i * 0.5;
  for (int i = 0; i < NP; i++)
    for (int j = 0; j < NF; j++) feature[i][j] = (float)((i * 7 + j * 3) % 23) * 0.25f;
  for (int c = 0; c < NC; c++)
    for (int j = 0; j < NF; j++) clusters[c][j] = feature[c * 37][j];
#pragma omp parallel for
  for (int i = 0; i < NP; i++) member[i] = nearest(feature[i], clusters, NC, NF);
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++) v[i] = v[i] * 2.0 + dist(feature[i], feature[i + 1], NF);
  long s = 0;
  for (int i = 0; i < NP; i++) s += member[i] * (i % 9 + 1);
  printf("%ld %d %.9g\n", s, member[NP - 1], v[10] + v[n - 2]);
  return 0;
}
