/* translate-test: rtol=1e-12 translate=--directives=openacc
 *
 * Parallel reductions with OpenACC directives (translate --directives openacc): the OpenACC
 * version of samples/c/reductions.c.  A "reduction" clause is the user's consent to add the
 * terms in another order, so sums may differ in the last bits (hence the tolerance on the
 * first line); maxima, minima and counts are exact.  OpenACC reduces scalar variables, so
 * each function accumulates into a local and stores it at the end.
 */
#include <math.h>
#include <stdio.h>

#define N 1000
#define ROWS 37
#define COLS 45

void dot(int n, const double *restrict x, const double *restrict y, double *restrict out)
{
  double s = *out;
#pragma acc parallel loop reduction(+:s) vector_length(64) copyin(x[0:n], y[0:n])
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  *out = s;
}

void stats(int n, const double *restrict x, double *restrict big, double *restrict small,
           int *restrict npos)
{
  double b = 0.0, sm = x[0];
  int count = 0;
#pragma acc parallel loop num_gangs(1) vector_length(128) \
    reduction(max:b) reduction(min:sm) reduction(+:count)
  for (int i = 0; i < n; i++) {
    if (fabs(x[i]) > b)
      b = fabs(x[i]);
    sm = x[i] < sm ? x[i] : sm;
    if (x[i] > 0.0)
      count++;
  }
  *big = b;
  *small = sm;
  *npos = count;
}

void row_sums(int m, int n, const double a[m][n], double *restrict r)
{
#pragma acc parallel loop copyin(a[0:m][0:n]) copyout(r[0:m])
  for (int i = 0; i < m; i++) {
    double t = 0.0;
#pragma acc loop seq
    for (int j = 0; j < n; j++)
      t += a[i][j];
    r[i] = t;
  }
}

int main(void)
{
  static double x[N], y[N], a[ROWS][COLS], r[ROWS];
  double s = 0.0, big, small, sum = 0.0;
  int npos;
  for (int i = 0; i < N; i++) {
    x[i] = sin(0.37 * (i + 1)) + 0.1 * cos(2.1 * (i + 1));
    y[i] = cos(0.11 * (i + 1)) - 0.5;
  }
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      a[i][j] = 1.0 / (i + j + 2) - 0.01 * ((i + 1) * (j + 1) % 7);

  dot(N, x, y, &s);
  printf("dot %.15e\n", s);
  stats(N, x, &big, &small, &npos);
  printf("max |x| %.15e min x %.15e positive %d\n", big, small, npos);
  row_sums(ROWS, COLS, a, r);
  for (int i = 0; i < ROWS; i++)
    sum += r[i];
  printf("rows %.15e %.15e %.15e sum %.15e\n", r[0], r[ROWS / 2], r[ROWS - 1], sum);
  return 0;
}
