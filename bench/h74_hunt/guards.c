/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 240
static double a[N], b[N], c[N], d[N], e[N];

/* a neighbour read under a short-circuit guard, in an if and in an expression */
static void peaks(int n, double t, const double *restrict in, double *restrict out)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    if (i > 0 && in[i - 1] > t)
      out[i] = in[i] - in[i - 1];
    else
      out[i] = in[i];
  }
}

static void marks(int n, double t, const double *restrict in, double *restrict out)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = (i + 1 < n && in[i + 1] > t) || (i > 0 && in[i - 1] < -t) ? 1.0 : 0.5 * in[i];
}

/* boundary rows of a 1-D stencil as nested ternaries */
static void ends(int n, const double *restrict in, double *restrict out)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = i == 0 ? in[0] : (i == n - 1 ? in[n - 1] : 0.5 * (in[i - 1] + in[i + 1]));
}

static void chain(int n, const double *restrict in, double *restrict out)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = i == n - 1 ? in[i] : i < n - 2 ? in[i + 2] - in[i + 1] : in[i + 1];
}

static void either(int n, const double *restrict in, double *restrict out)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    out[i] = i == 0 || i == n - 1 ? in[i] : in[i - 1] * in[i + 1];
}

int main(void)
{
  for (int i = 0; i < N; i++)
    a[i] = ((i * 37) % 11) * 0.25 - 1.0;
  peaks(N, 0.3, a, b);
  marks(N, 0.6, a, c);
  ends(N, a, d);
  chain(N / 2, a, e);
  chain(N / 2, a + N / 2, e + N / 2);
  either(N, b, a);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i] * (i % 5) + b[i] + c[i] * 3 + d[i] * 7 + e[i];
  printf("%a %a %a\n", s, a[N - 1], e[N / 2 - 1]);
  return 0;
}
