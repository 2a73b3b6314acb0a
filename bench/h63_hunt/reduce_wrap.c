/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 5000
static long l[N];
static int a[N];
int main(void)
{
  for (int i = 0; i < N; i++) { l[i] = (long)i * 987654321L - 77; a[i] = i * 40503; }
  int s = 7;
  unsigned u = 3;
  long p = 1;
#pragma omp parallel for reduction(+:s, u) reduction(*:p)
  for (int i = 0; i < N; i++) {
    s += l[i];
    u += l[i] * 3;
    p *= (i % 5 == 0) ? 3 : 1;
  }
  printf("%d %u %ld\n", s, u, p);
  return 0;
}
