/* translate-test: translate=--directives=openmp */
/* A naive OpenMP port of HPCG's SYMGS forward sweep: parallel for over rows, although row i
   reads x[cols[k]] of rows updated earlier in the same sweep.  Must be refused at the
   directive (a gather through cols that the loop also writes). */
#include <stdio.h>
#define N 64
static int rowptr[N + 1], cols[3 * N];
static double vals[3 * N], diag[N], x[N], b[N];

int main(void)
{
  int nnz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = nnz;
    for (int d = -1; d <= 1; d++) {
      if (i + d < 0 || i + d >= N) continue;
      cols[nnz] = i + d;
      vals[nnz] = d == 0 ? 3.0 : -1.0;
      nnz++;
    }
    diag[i] = 3.0;
    b[i] = 1.0 + (i % 3);
    x[i] = 0.0;
  }
  rowptr[N] = nnz;
#pragma omp parallel for
  for (int i = 0; i < N; i++) {
    double sum = b[i];
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) sum -= vals[k] * x[cols[k]];
    sum += x[i] * diag[i];
    x[i] = sum / diag[i];
  }
  printf("%.17g %.17g\n", x[0], x[N - 1]);
  return 0;
}
