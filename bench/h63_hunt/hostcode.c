/* translate-test: translate=--directives=openacc */
/* A region with straight-line code between its loops (run by the host glue or a single
   work item): mixed-type scalar arithmetic, bool, unsigned wrap, float rounding of double
   constants, a scalar written in the region and read after it. */
#include <stdio.h>
#include <stdbool.h>
#include <math.h>
#define N 128
static float x[N], y[N];
static double z[N];

int main(void)
{
  for (int i = 0; i < N; i++) { x[i] = (float)(i * 0.1 - 3); y[i] = 0; z[i] = 0; }
  float scale = 0;
  unsigned mask = 0;
  bool pos = 0;
  int half = 0;
  double avg = 0;
#pragma acc kernels copy(x[0:N], y[0:N], z[0:N])
  {
    scale = 1.0 / 3.0;
    mask = -1;
    mask >>= 28;
    half = N / 2 * 0.75;
    pos = scale - 0.3333;
    for (int i = 0; i < N; i++)
      y[i] = x[i] * scale + mask + pos;
    avg = y[half] / 7 + (float)mask / 3;
    for (int i = 0; i < N; i++)
      z[i] = y[i] * avg + fmodf(x[i], 0.7f);
  }
  double s = 0;
  for (int i = 0; i < N; i++) s += z[i] + y[i];
  printf("%a %a %u %d %d %a\n", s, scale, mask, half, pos, avg);
  return 0;
}
