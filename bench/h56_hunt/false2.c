/* translate-test: translate=--directives=openmp */
/* FALSE OpenMP claims as they happen in real code: a histogram without atomic, a sum without
   a reduction clause, a prefix sum, a shared temporary read after the loop. Each must be
   refused or run with its sequential meaning, never a different answer. */
#include <stdio.h>
#define N 1000
static int hist[16], idx[N];
static double a[N], b[N], pre[N];

static void histogram(int n)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) hist[idx[i]] += 1;
}

static double total(int n)
{
  double sum = 0.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) sum += a[i];
  return sum;
}

static void prefix(int n)
{
  pre[0] = a[0];
#pragma omp parallel for
  for (int i = 1; i < n; i++) pre[i] = pre[i - 1] + a[i];
}

static double swap(int n)
{
  double t = 0.0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) { t = a[i]; a[i] = b[i]; b[i] = t; }
  return t;
}

int main(void)
{
  for (int i = 0; i < N; i++) { idx[i] = (i * 7) % 16; a[i] = i * 0.5; b[i] = -i; }
  histogram(N);
  double s = total(N);
  prefix(N);
  double t = swap(N);
  printf("%d %d %.17g %.17g %.17g %.17g\n", hist[0], hist[15], s, pre[N - 1], t, a[3]);
  return 0;
}
