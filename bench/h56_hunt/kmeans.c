/* translate-test: rtol=1e-12 translate=--directives=openmp */
/* Rodinia-kmeans-like: nearest cluster per point (argmin over clusters of a sum over
   features, a static inline distance helper), reduction(+:delta), then a histogram of
   memberships under `omp atomic` and the new centres summed per cluster. */
#include <stdio.h>
#include <float.h>
#define NPTS 2000
#define NFEAT 6
#define NCLUST 5
static float feature[NPTS][NFEAT];
static float clusters[NCLUST][NFEAT];
static int membership[NPTS], counts[NCLUST];

static inline float euclid_dist_2(const float *pt, const float *ct, int nfeatures)
{
  float ans = 0.0f;
  for (int i = 0; i < nfeatures; i++) ans += (pt[i] - ct[i]) * (pt[i] - ct[i]);
  return ans;
}

int main(void)
{
  for (int i = 0; i < NPTS; i++)
    for (int j = 0; j < NFEAT; j++) feature[i][j] = (float)((i * 13 + j * 7) % 97) / 9.7f;
  for (int c = 0; c < NCLUST; c++)
    for (int j = 0; j < NFEAT; j++) clusters[c][j] = feature[c * 11][j];
  for (int i = 0; i < NPTS; i++) membership[i] = -1;
  for (int loop = 0; loop < 3; loop++) {
    int delta = 0;
#pragma omp parallel for shared(feature, clusters, membership) reduction(+:delta)
    for (int i = 0; i < NPTS; i++) {
      int index = 0;
      float min_dist = FLT_MAX;
      for (int c = 0; c < NCLUST; c++) {
        float dist = 0.0f;
        for (int j = 0; j < NFEAT; j++) dist += (feature[i][j] - clusters[c][j]) * (feature[i][j] - clusters[c][j]);
        if (dist < min_dist) { min_dist = dist; index = c; }
      }
      if (membership[i] != index) delta += 1;
      membership[i] = index;
    }
    for (int c = 0; c < NCLUST; c++) counts[c] = 0;
#pragma omp parallel for
    for (int i = 0; i < NPTS; i++) {
#pragma omp atomic
      counts[membership[i]] += 1;
    }
    for (int c = 0; c < NCLUST; c++) {
      for (int j = 0; j < NFEAT; j++) {
        float s = 0.0f;
        for (int i = 0; i < NPTS; i++) if (membership[i] == c) s += feature[i][j];
        if (counts[c] > 0) clusters[c][j] = s / counts[c];
      }
    }
    printf("loop %d delta %d counts %d %d %d %d %d\n", loop, delta, counts[0], counts[1], counts[2], counts[3], counts[4]);
  }
  printf("%.9g %.9g %.9g\n", clusters[0][0], clusters[2][3], euclid_dist_2(feature[5], clusters[1], NFEAT));
  return 0;
}
