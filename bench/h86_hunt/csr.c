/* translate-test: translate=--directives=openmp rtol=1e-14 */
/* CSR SpMV as HPCCG/miniFE write it: rowptr[i] .. rowptr[i + 1] ranges, x[col[k]] gathers
   through restrict pointers of the arrays' malloc'ed storage, power iterations. */
#include <stdio.h>
#include <stdlib.h>

static void spmv(int nrow, const int *restrict rowptr, const int *restrict col,
                 const double *restrict val, const double *restrict x, double *restrict y)
{
#pragma omp parallel for
  for (int i = 0; i < nrow; i++) {
    double sum = 0.0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
      sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}

static void spmv_start_end(int nrow, const int *restrict rowptr, const int *restrict col,
                           const double *restrict val, const double *restrict x,
                           double *restrict y)
{
#pragma omp parallel for
  for (int i = 0; i < nrow; i++) {
    const int start = rowptr[i], end = rowptr[i + 1];
    double sum = 0.0;
    for (int k = start; k < end; k++)
      sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}

static double norm_scale(int n, double *restrict y, double *restrict x)
{
  double s = 0.0;
  for (int i = 0; i < n; i++) s += y[i] * y[i];
  for (int i = 0; i < n; i++) x[i] = y[i] / s;
  return s;
}

int main(void)
{
  const int n = 3000;
  int *rowptr = malloc(sizeof(int) * (n + 1));
  int *col = malloc(sizeof(int) * n * 5);
  double *val = malloc(sizeof(double) * n * 5);
  double *x = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n);
  int nnz = 0;
  for (int i = 0; i < n; i++) {
    rowptr[i] = nnz;
    int len = 1 + (i * 7) % 5;
    for (int k = 0; k < len; k++) {
      col[nnz] = (i * 13 + k * 611) % n;
      val[nnz] = 1.0 / (1 + k + i % 4);
      nnz++;
    }
    x[i] = 1.0 + (i % 10) * 0.1;
  }
  rowptr[n] = nnz;
  double s = 0.0;
  for (int it = 0; it < 10; it++) {
    if (it % 2) spmv(n, rowptr, col, val, x, y);
    else spmv_start_end(n, rowptr, col, val, x, y);
    s = norm_scale(n, y, x);
  }
  printf("%.15e %.15e %.15e %.15e\n", s, x[0], x[n / 2], x[n - 1]);
  free(rowptr); free(col); free(val); free(x); free(y);
  return 0;
}
