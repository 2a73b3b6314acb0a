/* translate-test: translate=--directives=openmp */
/* Rodinia nw (OpenMP): anti-diagonal sweeps over a flat score matrix with rows of the local
   max_cols (set once to N), the cell of each diagonal from the diagonal number d:
   index = r*max_cols + c with r + c constant along the parallel loop. */
#include <stdio.h>
#define N 53
#define PENALTY 10
static int score[N * N], ref[N * N];

static inline int maximum(int a, int b, int c)
{
  int k = a <= b ? b : a;
  return k <= c ? c : k;
}

int main(void)
{
  int max_cols = N;
  for (int i = 0; i < N * N; i++) ref[i] = (i * 7 + 3) % 21 - 10;
  for (int i = 0; i < N; i++) { score[i * N] = -i * PENALTY; score[i] = -i * PENALTY; }
  for (int d = 0; d < N - 1; d++) {
#pragma omp parallel for shared(score, ref)
    for (int idx = 0; idx <= d; idx++) {
      int r = idx + 1, c = d - idx + 1;
      int index = r * max_cols + c;
      score[index] = maximum(score[index - 1 - max_cols] + ref[index],
                             score[index - 1] - PENALTY, score[index - max_cols] - PENALTY);
    }
  }
  for (int d = N - 3; d >= 0; d--) {
#pragma omp parallel for shared(score, ref)
    for (int idx = 0; idx <= d; idx++) {
      int r = N - 1 - d + idx, c = N - 1 - idx;
      int index = r * max_cols + c;
      score[index] = maximum(score[index - 1 - max_cols] + ref[index],
                             score[index - 1] - PENALTY, score[index - max_cols] - PENALTY);
    }
  }
  long s = 0;
  for (int i = 0; i < N * N; i++) s += score[i] * (i % 11);
  printf("%d %ld\n", score[N * N - 1], s);
  return 0;
}
