/* translate-test: translate=--directives=openmp
 *
 * lastprivate: each iteration has its own copy of t (and k), and after the loop they hold the
 * values the sequentially last iteration gave them, as in OpenMP.  The loops run in parallel;
 * the work item that runs the last iteration (i = 1000; in the collapsed triangle, the last
 * point (i, j) = (n - 1, n - 1)) stores its copies.  Bit-identical to the original.
 */
#include <stdio.h>
#include <math.h>

static void last_value(int n, const double *restrict a, double *restrict c, double *t_out,
                       int *k_out)
{
  double t = -1;
  int k = -1;
#pragma omp parallel for lastprivate(t, k)
  for (int i = 0; i < n; i += 2) {
    t = a[i] * 3;
    k = i;
    t = t + k;
    c[i] = t * t;
  }
  *t_out = t;
  *k_out = k;
}

static void last_of_triangle(int n, double u[n][n], double v[n][n], double *s_out,
                             int *at_out)
{
  double s = 0;
  int at = 0;
#pragma omp parallel
  {
#pragma omp for collapse(2) lastprivate(s, at)
    for (int i = 0; i < n; i++)
      for (int j = i; j < n; j++) {
        s = u[i][j] + i - j;
        at = 1000 * i + j;
        v[i][j] = 2 * s;
      }
  }
  *s_out = s;
  *at_out = at;
}

int main(void)
{
  enum { N = 1001, M = 40 };
  static double a[N], c[N], u[M][M], v[M][M];
  for (int i = 0; i < N; i++)
    a[i] = sin(0.01 * i);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++)
      u[i][j] = 1.0 / (1 + i + 2 * j);
  double t, s, sc = 0, sv = 0;
  int k, at;
  last_value(N, a, c, &t, &k);
  last_of_triangle(M, u, v, &s, &at);
  for (int i = 0; i < N; i++) sc += c[i];
  for (int i = 0; i < M; i++)
    for (int j = 0; j < M; j++) sv += v[i][j];
  printf("%.17g %d\n%.17g %d\n%.17g %.17g\n", t, k, s, at, sc, sv);
  return 0;
}
