/* translate-test: rtol=1e-12 translate=--directives=openmp
 *
 * Reductions with OpenMP clauses.  reduction(+:s) is the user's consent to add the terms in
 * another order (a parallel sum is rounded differently: hence the tolerance); maxima and
 * integer counts are exact in any order.  A worksharing loop over rows with an inner loop
 * declared in the for statement (private) needs no clause at all.
 */
#include <math.h>
#include <stdio.h>

#define N 1000
#define ROWS 37
#define COLS 45

double dot(int n, const double *restrict x, const double *restrict y)
{
  double s = 0.0;
#pragma omp parallel for reduction(+:s)
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

void stats(int n, const double *restrict x, double *big, int *npos)
{
  double hi = 0.0;
  int count = 0;
#pragma omp parallel for reduction(max:hi) reduction(+:count)
  for (int i = 0; i < n; i++) {
    hi = fmax(hi, fabs(x[i]));
    count += x[i] > 0.0;
  }
  *big = hi;
  *npos = count;
}

void row_sums(int m, int n, const double a[m][n], double *restrict r)
{
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
    r[i] = 0.0;
    for (int j = 0; j < n; j++)
      r[i] += a[i][j];
  }
}

int main(void)
{
  static double x[N], y[N], a[ROWS][COLS], r[ROWS];
  double big, sum = 0.0;
  int npos;
  for (int i = 0; i < N; i++) {
    x[i] = sin(0.37 * (i + 1)) + 0.1 * cos(2.1 * (i + 1));
    y[i] = cos(0.11 * (i + 1)) - 0.5;
  }
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      a[i][j] = 1.0 / (i + j + 2) - 0.01 * ((i + 1) * (j + 1) % 7);
  printf("dot %.15e\n", dot(N, x, y));
  stats(N, x, &big, &npos);
  printf("max |x| %.15e positive %d\n", big, npos);
  row_sums(ROWS, COLS, a, r);
  for (int i = 0; i < ROWS; i++)
    sum += r[i];
  printf("rows %.15e %.15e %.15e\n", r[0], r[ROWS / 2], sum);
  return 0;
}
