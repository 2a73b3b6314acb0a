/* translate-test: translate=--directives=openmp */
/* Helpers as projects write them, inlined into parallel loops: float parameters given double
   arguments, narrow integer parameters that wrap, a local array sorted by a small network in
   the helper, sqrtf/fminf in a float helper returning into double arithmetic, a helper
   calling a helper with a row pointer, a void helper writing through two pointers. */
#include <stdio.h>
#include <math.h>
#define N 256
static double in[N][4], out[N], mid[N];
static int tag[N];

static float sq(float x) { return x * x; }
static int wrap8(unsigned char c) { return c * 3; }
static inline void swap_if(double *p, double *q)
{
  if (*p > *q) { double t = *p; *p = *q; *q = t; }
}
static double median4(const double *v)
{
  double w[4];
  for (int k = 0; k < 4; k++) w[k] = v[k];
  swap_if(&w[0], &w[1]); swap_if(&w[2], &w[3]);
  swap_if(&w[0], &w[2]); swap_if(&w[1], &w[3]);
  swap_if(&w[1], &w[2]);
  return 0.5 * (w[1] + w[2]);
}
static float norm(float a, float b) { return fminf(sqrtf(a * a + b * b), 1000.0f); }

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 4; k++) in[i][k] = ((i * 7 + k * 13) % 29) / 3.0 - 4.0;
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double d = in[i][0] * 1.0000001;
    out[i] = sq(d) + norm(in[i][1], in[i][2]) * 0.1;
    tag[i] = wrap8(i * 7 + 200);
    mid[i] = median4(in[i]);
  }
  double s = 0, m = 0;
  long t = 0;
  for (int i = 0; i < N; i++) { s += out[i] * (i % 3 + 1); t += tag[i]; m += mid[i] * (i % 5); }
  printf("%.17g %ld %.17g %.17g\n", s, t, m, out[5]);
  return 0;
}
