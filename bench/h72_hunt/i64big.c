/* translate-test: translate=--directives=openmp */
#include <stdio.h>
static long g[10][10];
int main(void)
{
#pragma omp parallel for collapse(2)
  for (long i = 1500000000L; i < 1500000010L; i++)
    for (long j = 1600000000L; j < 1600000010L; j++)
      g[i - 1500000000L][j - 1600000000L] = i + j;
  long s = 0;
  for (int i = 0; i < 10; i++) for (int j = 0; j < 10; j++) s += g[i][j];
  printf("%ld %ld\n", s, g[0][0]);
  return 0;
}
