/* translate-test: rtol=1e-13 translate=--directives=openmp */
/* HPCCG/miniFE-like CSR: SpMV with an indirect inner range rowptr[i]..rowptr[i+1], a
   waxpby, a ddot with reduction(+:), a CG-like loop around them; const double *restrict. */
#include <stdio.h>
#include <stdlib.h>
#define NX 20
#define NROW (NX * NX * NX)

static void spmv(int nrow, int nnz, const int rowptr[nrow + 1], const int cols[nnz],
                 const double vals[nnz], const double x[nrow], double y[nrow])
{
#pragma omp parallel for schedule(dynamic, 64)
  for (int i = 0; i < nrow; i++) {
    double sum = 0.0;
    
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
      sum += vals[k] * x[cols[k]];
    y[i] = sum;
  }
}

static void waxpby(int n, double alpha, const double *restrict x, double beta, const double *restrict y,
                   double *restrict w)
{
  if (alpha == 1.0) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) w[i] = x[i] + beta * y[i];
  } else if (beta == 1.0) {
#pragma omp parallel for
    for (int i = 0; i < n; i++) w[i] = alpha * x[i] + y[i];
  } else {
#pragma omp parallel for
    for (int i = 0; i < n; i++) w[i] = alpha * x[i] + beta * y[i];
  }
}

static double ddot(int n, const double *restrict x, const double *restrict y)
{
  double local = 0.0;
  if (y == x) {
#pragma omp parallel for reduction(+:local)
    for (int i = 0; i < n; i++) local += x[i] * x[i];
  } else {
#pragma omp parallel for reduction(+:local)
    for (int i = 0; i < n; i++) local += x[i] * y[i];
  }
  return local;
}

int main(void)
{
  int *rowptr = malloc(sizeof(int) * (NROW + 1));
  int *cols = malloc(sizeof(int) * NROW * 27);
  double *vals = malloc(sizeof(double) * NROW * 27);
  double *x = calloc(NROW, sizeof(double)), *b = malloc(sizeof(double) * NROW);
  double *r = malloc(sizeof(double) * NROW), *p = malloc(sizeof(double) * NROW);
  double *Ap = malloc(sizeof(double) * NROW), *t = malloc(sizeof(double) * NROW);
  int nnz = 0;
  rowptr[0] = 0;
  for (int iz = 0; iz < NX; iz++)
    for (int iy = 0; iy < NX; iy++)
      for (int ix = 0; ix < NX; ix++) {
        int row = ix + NX * (iy + NX * iz);
        for (int sz = -1; sz <= 1; sz++)
          for (int sy = -1; sy <= 1; sy++)
            for (int sx = -1; sx <= 1; sx++) {
              int cx = ix + sx, cy = iy + sy, cz = iz + sz;
              if (cx < 0 || cy < 0 || cz < 0 || cx >= NX || cy >= NX || cz >= NX) continue;
              cols[nnz] = cx + NX * (cy + NX * cz);
              vals[nnz] = (cols[nnz] == row) ? 27.0 : -1.0;
              nnz++;
            }
        rowptr[row + 1] = nnz;
        b[row] = 27.0 - (double)(nnz - rowptr[row] - 1);
      }
  waxpby(NROW, 1.0, b, 0.0, x, r);
  waxpby(NROW, 1.0, r, 0.0, b, p);
  double rtrans = ddot(NROW, r, r);
  for (int it = 0; it < 25; it++) {
    spmv(NROW, nnz, rowptr, cols, vals, p, Ap);
    double alpha = rtrans / ddot(NROW, p, Ap);
    waxpby(NROW, 1.0, x, alpha, p, t); { double *q = x; x = t; t = q; }
    waxpby(NROW, 1.0, r, -alpha, Ap, t); { double *q = r; r = t; t = q; }
    double old = rtrans;
    rtrans = ddot(NROW, r, r);
    waxpby(NROW, 1.0, r, rtrans / old, p, t); { double *q = p; p = t; t = q; }
  }
  printf("%.15e %.15e %.15e\n", rtrans, x[0], x[NROW / 2]);
  free(rowptr); free(cols); free(vals); free(x); free(b); free(r); free(p); free(Ap); free(t);
  return 0;
}
