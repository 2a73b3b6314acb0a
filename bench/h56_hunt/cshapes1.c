/* translate-test: rtol=1e-13 translate=--directives=openmp */
/* C shapes of real kernels: pointer arithmetic to a row (`double *row = a + i*n; row[j]`),
   a const global coefficient table, a private local array per iteration, a static inline
   accessor taking the array and indices, a reduction whose variable starts non-zero,
   fmax in a max reduction, a size_t loop counting down, long products of ints. */
#include <stdio.h>
#include <math.h>
#include <stddef.h>
#define N 64
static const double coef[5] = {0.1, -0.25, 0.5, 0.75, -1.0};
static const int offs[3][2] = {{0, 1}, {1, 0}, {1, 1}};
static double a[N * N], b[N * N], c[N * N];
static int ia[N * N], ib[N * N];

static inline double at(const double *restrict m, int i, int j, int n) { return m[i * n + j]; }

static void rows(int n, double *restrict out, const double *restrict in)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double *orow = out + i * n;
    const double *irow = in + (size_t)i * n;
    for (int j = 0; j < n; j++) orow[j] = 2.0 * irow[j] + coef[j % 5];
  }
}

static void local_array(int n, double out[restrict n * n], const double in[restrict n * n])
{
#pragma omp parallel for
  for (int i = 0; i < n - 1; i++) {
    for (int j = 0; j < n - 1; j++) {
      double loc[3];
      for (int k = 0; k < 3; k++) loc[k] = in[(i + offs[k][0]) * n + j + offs[k][1]];
      out[i * n + j] = loc[0] * coef[0] + loc[1] * coef[1] + loc[2] * coef[2] + at(in, i, j, n);
    }
  }
}

static double sums(int n, const double *restrict x, double *mx, long *lp)
{
  double s = 10.0, m = -1.0;
  long l = 7;
#pragma omp parallel for reduction(+:s, l) reduction(max:m)
  for (int i = 0; i < n * n; i++) {
    s += x[i];
    m = fmax(m, x[i]);
    l += (long)ia[i] * ib[i];
  }
  *mx = m; *lp = l;
  return s;
}

static void down(size_t n, double *restrict y, const double *restrict x)
{
#pragma omp parallel for
  for (size_t i = n; i > 0; i--) y[i - 1] = x[n - i] * 0.5 + (double)(i % 3);
}

int main(void)
{
  for (int i = 0; i < N * N; i++) {
    a[i] = ((i * 17) % 29) / 29.0 - 0.4; ia[i] = 40000 + i * 3; ib[i] = 50000 - i;
  }
  rows(N, b, a);
  local_array(N, c, b);
  double mx; long l;
  double s = sums(N, c, &mx, &l);
  down((size_t)N * N, a, c);
  printf("%.17g %.17g %.17g %.17g %ld %.17g %.17g\n", b[5], b[N * N - 1], c[N + 3], s, l, mx, a[7]);
  return 0;
}
