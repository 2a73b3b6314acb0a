/* translate-test: translate=--directives=openmp,translate */
/* NPB IS's shape: keys from an LCG, the key histogram under `omp parallel for` with `omp
   atomic` (integer: any order gives the same counts), the prefix sum over buckets in a
   translate region (a recurrence: sequential), each key's rank gathered in parallel, the
   counting sort's scatter (key_buff1[k]-- then store: sequential, in a translate region),
   and the partial verification as a reduction(+:) of integers. */
#include <stdio.h>
#define NKEYS 4096
#define MAXKEY 512
static int key[NKEYS], rank[NKEYS], sorted[NKEYS], buff[MAXKEY], work[MAXKEY];

int main(void)
{
  unsigned int seed = 314159265u;
  for (int i = 0; i < NKEYS; i++) {
    int k = 0;
    for (int r = 0; r < 4; r++) {      /* a sum of four uniforms: NPB's bell shape */
      seed = seed * 1103515245u + 12345u;
      k += (int)((seed >> 16) % (MAXKEY / 4));
    }
    key[i] = k;
  }
  for (int iter = 0; iter < 3; iter++) {
    key[iter] = iter;
    key[iter + 10] = MAXKEY - 1 - iter;
#pragma omp parallel for
    for (int b = 0; b < MAXKEY; b++) buff[b] = 0;
#pragma omp parallel for
    for (int i = 0; i < NKEYS; i++) {
#pragma omp atomic
      buff[key[i]]++;
    }
#pragma translate kernel is_prefix
    for (int b = 1; b < MAXKEY; b++) buff[b] += buff[b - 1];
#pragma translate end kernel
#pragma omp parallel for
    for (int i = 0; i < NKEYS; i++) rank[i] = key[i] > 0 ? buff[key[i] - 1] : 0;
    int passed = 0;
#pragma omp parallel for reduction(+:passed)
    for (int i = 0; i < NKEYS; i++)
      if (i > 0 && key[i] >= key[i - 1] && rank[i] >= rank[i - 1]) passed++;
    printf("iter %d: rank[0..2] %d %d %d, rank[10] %d, passed %d\n", iter, rank[0], rank[1],
           rank[2], rank[10], passed);
  }
  for (int b = 0; b < MAXKEY; b++) work[b] = buff[b];
#pragma translate kernel is_scatter
  for (int i = 0; i < NKEYS; i++) {
    work[key[i]]--;
    sorted[work[key[i]]] = key[i];
  }
#pragma translate end kernel
  int bad = 0;
#pragma omp parallel for reduction(+:bad)
  for (int i = 1; i < NKEYS; i++) bad += sorted[i - 1] > sorted[i];
  printf("sorted %d %d %d, out of order %d\n", sorted[0], sorted[NKEYS / 2], sorted[NKEYS - 1], bad);
  return 0;
}
