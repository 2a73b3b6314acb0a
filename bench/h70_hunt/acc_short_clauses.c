/* translate-test: translate=--directives=openacc,openmp */
/* Data clauses on compute constructs smaller than what the loop touches: they move nothing
   in a translation (the region moves what it uses); each is a warning at the clause. */
#include <stdio.h>

static void scale(int n, const double *restrict x, double *restrict y) {
#pragma acc parallel loop copyin(x[0:n/2]) copyout(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[i];
}

static void shift(int n, const double *restrict x, double *restrict y) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: y[1:n-1])
  for (int i = 0; i < n; i++)
    y[i] = x[i] + 1.0;
}

static void fine(int n, const double *restrict x, double *restrict y) {
#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

int main(void) {
  enum { N = 100 };
  double x[N], y[N];
  for (int i = 0; i < N; i++) { x[i] = i * 0.5; y[i] = 0; }
  scale(N, x, y);
  shift(N, x, y);
  fine(N, x, y);
  double t = 0;
  for (int i = 0; i < N; i++) t += y[i];
  printf("%.16e\n", t);
  return 0;
}
