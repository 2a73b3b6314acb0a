/* translate-test: translate=--directives=openmp */
/* Needleman-Wunsch-like: the score matrix filled row by row with a FALSE
   `omp parallel for` on the column loop (each cell reads its left neighbour). */
#include <stdio.h>
#define N 129
#define PENALTY 10
static int score[N * N], ref[N * N];
static inline int maximum(int a, int b, int c)
{
  int k = a <= b ? b : a;
  return k <= c ? c : k;
}
int main(void)
{
  for (int i = 0; i < N * N; i++) ref[i] = (i * 7 + 3) % 21 - 10;
  for (int i = 0; i < N; i++) { score[i * N] = -i * PENALTY; score[i] = -i * PENALTY; }
  for (int i = 1; i < N; i++) {
#pragma omp parallel for
    for (int j = 1; j < N; j++)
      score[i * N + j] = maximum(score[(i - 1) * N + j - 1] + ref[i * N + j],
                                 score[i * N + j - 1] - PENALTY,
                                 score[(i - 1) * N + j] - PENALTY);
  }
  long s = 0;
  for (int i = 0; i < N * N; i++) s += score[i] * (i % 11);
  printf("%d %ld\n", score[N * N - 1], s);
  return 0;
}
