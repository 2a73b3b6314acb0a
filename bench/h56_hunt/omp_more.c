/* translate-test: rtol=1e-13 translate=--directives=openmp */
/* OpenMP as newer project code writes it: an array-section reduction for a histogram
   (reduction(+:hist[:NB])), a loop with a variable step, default(none) with shared and firstprivate
   lists, a `single` between two `for` loops of one `parallel`, the loop variable declared
   outside and read after the loop. */
#include <stdio.h>
#define N 1000
#define NB 16
static int hist[NB], key[N];
static double a[N], b[N], c[N];

static void histo(int n)
{
#pragma omp parallel for reduction(+:hist[:NB])
  for (int i = 0; i < n; i++) hist[key[i]] += 1;
}

static void strided(int start, int n, int stride)
{
#pragma omp parallel for
  for (int i = start; i < n; i += stride) a[i] = a[i] * 2.0 + i;
}

static int dflt(int n, double f)
{
  int i;
#pragma omp parallel for default(none) shared(a, b, n) firstprivate(f)
  for (i = 0; i < n; i++) b[i] = a[i] * f;
  return i;
}

static double two_loops(int n)
{
  double tot = 0.0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
#pragma omp single
    tot = c[0];
#pragma omp for reduction(+:tot)
    for (int i = 0; i < n; i++) tot += c[i] * 0.5;
  }
  return tot;
}

int main(void)
{
  for (int i = 0; i < N; i++) { key[i] = (i * 11) % NB; a[i] = i * 0.25; }
  histo(N);
  strided(3, N, 7);
  int last = dflt(N, 1.5);
  double t = two_loops(N);
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i] + b[i] * 2;
  printf("%d %d %d %.17g %.17g\n", hist[0], hist[NB - 1], last, s, t);
  return 0;
}
