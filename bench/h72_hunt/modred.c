/* translate-test: translate=--directives=openmp translate=-Wno-error=directive-race */
#include <stdio.h>
#define N 5000
static unsigned u[N];
static unsigned long long ul[N];
static int a[N];
int main(void)
{
  for (int i = 0; i < N; i++) {
    u[i] = (unsigned)i * 2654435761u;
    ul[i] = (unsigned long long)i * 0x9E3779B97F4A7C15ull;
    a[i] = (int)(u[i] >> 1) - 1000000000;
  }
  int s = 7, d = -3, p = 1;
  long long ls = 5;
  int m = 0;
  unsigned um = 0;
  short t = 0;
#pragma omp parallel for reduction(+:s, d, ls)
  for (int i = 0; i < N; i++) {
    s += u[i];
    d -= u[i];
    ls += ul[i];
  }
#pragma omp parallel for reduction(*:p)
  for (int i = 0; i < N; i++)
    p *= (u[i] | 1u);
#pragma omp parallel for reduction(max:m)
  for (int i = 0; i < N; i++)
    if (u[i] > m) m = u[i];
#pragma omp parallel for reduction(max:um)
  for (int i = 0; i < N; i++)
    if (a[i] > um) um = a[i];
  printf("%d %d %lld %d %d %u\n", s, d, ls, p, m, um);
  return 0;
}
