/* translate-test: rtol=1e-13 translate=--directives=openmp */
/* Pointers into the middle of arrays, as halo codes pass them: smooth(n - 2, a + 1, b + 1)
   reads in[-1] and in[n]; a read-only vector given twice to restrict parameters
   (dot(x, x)); a block of a matrix passed as &m[k][k] with its leading dimension. */
#include <stdio.h>
#define N 200
static double a[N], b[N], m[40][40];

static void smooth(int n, const double *restrict in, double *restrict out)
{
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++) out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0;
}

static double dot(int n, const double *restrict x, const double *restrict y)
{
  double s = 0.0;
#pragma omp parallel for reduction(+:s)
  for (int i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

static void scale_block(int nb, int ld, double *restrict blk, double f)
{
#pragma omp parallel for
  for (int i = 0; i < nb; i++)
    for (int j = 0; j < 10; j++) blk[i * 40 + j] *= f + i;
}

int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = (i * 7 % 13) - 6.0; b[i] = -1.0; }
  for (int i = 0; i < 40; i++) for (int j = 0; j < 40; j++) m[i][j] = i + j * 0.5;
  smooth(N, a, b);
  double d = dot(N, a, a) + dot(N - 2, b + 1, a + 2);
  scale_block(10, 40, &m[5][5], 2.0);
  scale_block(5, 40, &m[30][0] + 3, -1.0);
  double s = 0;
  for (int i = 0; i < N; i++) s += b[i] * (i % 5 + 1);
  for (int i = 0; i < 40; i++) for (int j = 0; j < 40; j++) s += m[i][j] * (i + 2 * j);
  printf("%.17g %.17g %.17g %.17g\n", s, d, b[0], b[N - 1]);
  return 0;
}
