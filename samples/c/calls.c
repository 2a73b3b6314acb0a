/* Calls of functions of the same file inside a region: inlined.
 *
 * axpy's pointer parameters see the caller's rows (&x[i * n], y + i * n), row_sum calls two
 * other functions and writes the caller's s[i] through a pointer, accumulate writes a local
 * through &t, clip has an if / else if: every call is built as if written at the call, so
 * the loop over i is mapped (`translate --report`).
 */
#include <stdio.h>
#include <math.h>

static double sq(double x) { return x * x; }

static double clip(double v, double lo, double hi)
{
  double w = v;
  if (w < lo)
    w = lo;
  else if (w > hi)
    w = hi;
  return w;
}

static void axpy(int n, double a, const double *x, double *y)
{
  for (int k = 0; k < n; k++)
    y[k] = y[k] + a * x[k];
}

static void accumulate(double *s, double v) { *s += v; }

static void row_sum(int n, const double *row, double *out)
{
  double t = 0.0;
  for (int k = 0; k < n; k++)
    accumulate(&t, sq(row[k]));
  out[0] = t;
}

void work(int n, int m, double *restrict x, double *restrict y, double *restrict s,
          double *restrict b)
{
#pragma translate kernel calls_k
  for (int i = 0; i < m; i++) {
    axpy(n, 0.5 * i, &x[i * n], y + i * n);
    row_sum(n, &y[i * n], &s[i]);
    b[i] = clip(sqrt(sq(s[i])), 0.0, 100.0);
  }
#pragma translate end kernel
}

int main(void)
{
  enum { N = 9, M = 70 };
  static double x[N * M], y[N * M], s[M], b[M];
  for (int k = 0; k < N * M; k++) {
    x[k] = sin(0.1 * k);
    y[k] = cos(0.05 * k);
  }
  work(N, M, x, y, s, b);
  double t = 0, u = 0, v = 0;
  for (int k = 0; k < N * M; k++) t += y[k];
  for (int k = 0; k < M; k++) { u += s[k]; v += b[k]; }
  printf("%.17g %.17g %.17g\n", t, u, v);
  return 0;
}
