/* translate-test: rtol=1e-12
 *
 * Parallel reductions.  An accumulation such as `*s += x[i] * y[i]` inside a loop mapped to
 * the hardware is a reduction: the translator sums each work group's share in a tree in local
 * memory and, across work groups, adds each group's part to the result atomically.  Parallel
 * sums add the terms in another order than the loop, so results may differ in the last bits
 * (hence the tolerance on the first line); maxima, minima and counts are exact.
 *
 * Across work groups the result must be initialised before the region (groups cannot wait
 * for each other inside a kernel).  Mapping only the inner part of a loop to a local axis
 * keeps the reduction inside one work group, so the initialisation can stay in the region.
 */
#include <math.h>
#include <stdio.h>

#define N 1000
#define ROWS 37
#define COLS 45

void dot(int n, const double *restrict x, const double *restrict y, double *restrict s)
{
#pragma translate kernel dot_k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    *s += x[i] * y[i];
#pragma translate end kernel
}

void stats(int n, const double *restrict x, double *restrict big, double *restrict small,
           int *restrict npos, float *restrict total)
{
#pragma translate kernel stats_k
#pragma translate split_iname("i", 128, inner_tag="l.0")
  *big = 0.0;
  *small = x[0];
  *npos = 0;
  *total = 0.0f;
  for (int i = 0; i < n; i++) {
    if (fabs(x[i]) > *big)
      *big = fabs(x[i]);
    *small = x[i] < *small ? x[i] : *small;
    if (x[i] > 0.0)
      (*npos)++;
    *total += 0.25f * (float) (i % 7);   /* exact in any order: multiples of 1/4 */
  }
#pragma translate end kernel
}

void row_sums(int m, int n, const double a[m][n], double *restrict r)
{
#pragma translate kernel rows_k
#pragma translate tag_inames("i:g.0")
#pragma translate split_iname("j", 32, inner_tag="l.0")
  for (int i = 0; i < m; i++) {
    r[i] = 0.0;
    for (int j = 0; j < n; j++)
      r[i] += a[i][j];
  }
#pragma translate end kernel
}

/* Each row adds its count of positive entries to one of four bins: the columns run in
 * parallel, the rows in sequence, and every group adds its part atomically. */
void histogram(int m, int n, const double a[m][n], long long hist[4])
{
#pragma translate kernel hist_k
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      hist[i % 4] += (long long) (a[i][j] > 0.0);
#pragma translate end kernel
}

int main(void)
{
  static double x[N], y[N], a[ROWS][COLS], r[ROWS];
  double s = 0.0, big, small, sum = 0.0;
  float total;
  long long hist[4] = {0, 0, 0, 0};
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
  stats(N, x, &big, &small, &npos, &total);
  printf("max |x| %.15e min x %.15e positive %d sum %.9g\n", big, small, npos, total);
  row_sums(ROWS, COLS, a, r);
  histogram(ROWS, COLS, a, hist);
  for (int i = 0; i < ROWS; i++)
    sum += r[i];
  printf("rows %.15e %.15e %.15e sum %.15e\n", r[0], r[ROWS / 2], r[ROWS - 1], sum);
  printf("hist %lld %lld %lld %lld\n", hist[0], hist[1], hist[2], hist[3]);
  return 0;
}
