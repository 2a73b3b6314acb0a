/* translate-test: rtol=1e-13 translate=--directives=openmp */
/* The new C paths under stress: local pointers into rows (`double *r = m[i]`, `a + i*n`,
   `row - 1`), two views of one array in a wavefront whose outer loop is carried, a view
   declared before the loop, index locals of unsigned and long types, in branches, feeding a
   reduction, and a helper taking a row of a view. */
#include <stdio.h>
#define N 40
static double m[N][N], a[N * N], out[N * N];
static double colsum(const double *restrict v, int n, int stride)
{
  double s = 0.0;
  for (int k = 0; k < n; k++) s += v[k * stride];
  return s;
}

static void wave(int n)   /* rows of N: with a parameter n, i*n is a product of parameters */
{
  for (int i = 1; i < n; i++) {
#pragma omp parallel for
    for (int j = 1; j < N - 1; j++) {
      double *dst = a + i * N;
      const double *src = a + (i - 1) * N;
      const double *left = src - 1;
      dst[j] = 0.25 * (left[j] + src[j] + src[j + 1]) + 0.25 * dst[j];
    }
  }
}

static double rows(int n)
{
  double tot = 0.0;
#pragma omp parallel for reduction(+:tot)
  for (int i = 0; i < N; i++) {
    double *r = m[i];
    const double *first = &a[0];
    unsigned u = i + 1u;
    long l = (long)i * N;
    for (int j = 0; j < N; j++) {
      int k = N - 1 - j;
      if (j % 2 == 0) {
        unsigned w = u * 3u - 2u;
        r[j] = r[j] * 0.5 + first[j] * w;
      } else {
        r[j] -= r[k] * 0.125;
      }
      out[l + j] = r[j] + colsum(first + j, 3, n);
      tot += out[l + j] * (double)(u % 3u);
    }
  }
  return tot;
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) { m[i][j] = (i * 3 + j * 7) % 11 - 5.0; a[i * N + j] = (i + j) % 5; }
  wave(N);
  double t = rows(N);
  double s = 0;
  for (int i = 0; i < N * N; i++) s += a[i] * (i % 7) + out[i] * (i % 3);
  printf("%.17g %.17g %.17g %.17g\n", t, s, m[3][4], out[N * N - 1]);
  return 0;
}
