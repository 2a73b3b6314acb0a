/* translate-test: translate=--directives=openacc rtol=1e-6 */
/* OpenACC reductions of mixed types: a float sum of double terms, an int max through fmax of
   ints, an unsigned min of signed values, a count, a product of small ints, collapse(2) sum. */
#include <stdio.h>
#include <math.h>
#define N 300
#define M 20
static double d[N];
static int k[N];
static float g[N * M];

int main(void)
{
  for (int i = 0; i < N; i++) { d[i] = sin(i * 0.01) * 3; k[i] = (i * 37) % 101 - 50; }
  for (int i = 0; i < N * M; i++) g[i] = (float)(i % 17) * 0.25f;
  float fs = 0;
  int imax = -1000, cnt = 0;
  unsigned umin = 4000000000u;
  long prod = 1;
  double gs = 0;
#pragma acc parallel loop reduction(+:fs, cnt) reduction(max:imax) reduction(min:umin) copyin(d[0:N], k[0:N])
  for (int i = 0; i < N; i++) {
    fs += d[i] * 0.5;
    imax = fmax(imax, k[i]);
    umin = k[i] < umin ? k[i] : umin;
    cnt += d[i] > 0;
  }
#pragma acc parallel loop reduction(*:prod) copyin(k[0:N])
  for (int i = 0; i < 40; i++)
    prod *= (k[i] % 3 == 0) ? 2 : 1;
#pragma acc parallel loop collapse(2) reduction(+:gs) copyin(g[0:N*M])
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      gs += g[i * M + j] * (j + 1);
  printf("%.6g %d %u %d %ld %.10g\n", fs, imax, umin, cnt, prod, gs);
  return 0;
}
