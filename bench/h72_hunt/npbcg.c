/* translate-test: translate=--directives=openmp rtol=1e-13 */
/* NPB-CG-like: 1-based rows firstrow..lastrow, rowstr/colidx, the conj_grad steps with
   rho reductions, a residual norm, p = r + beta*p, all on global arrays */
#include <math.h>
#include <stdio.h>
#define NA 1400
#define NONZER 6
#define NZ (NA * (NONZER + 1))
static int rowstr[NA + 2], colidx[NZ + 1];
static double a[NZ + 1], x[NA + 3], z[NA + 3], p[NA + 3], q[NA + 3], r[NA + 3];
int main(void)
{
  int firstrow = 1, lastrow = NA, nnz = 1;
  for (int j = 1; j <= NA; j++) {
    rowstr[j] = nnz;
    for (int k = 0; k <= NONZER; k++) {
      colidx[nnz] = 1 + (j * 17 + k * 131) % NA;
      a[nnz] = (k == 0 ? 10.0 : -1.0 / (k + 1)) + 0.001 * (j % 7);
      nnz++;
    }
  }
  rowstr[NA + 1] = nnz;
  for (int j = 1; j <= NA + 1; j++) x[j] = 1.0;
  int naa = lastrow - firstrow + 1;
  double rho = 0.0;
#pragma omp parallel for
  for (int j = 1; j <= naa + 1; j++) { q[j] = 0.0; z[j] = 0.0; r[j] = x[j]; p[j] = r[j]; }
#pragma omp parallel for reduction(+:rho)
  for (int j = 1; j <= lastrow - firstrow + 1; j++) rho = rho + r[j] * r[j];
  for (int cgit = 1; cgit <= 12; cgit++) {
#pragma omp parallel for
    for (int j = 1; j <= lastrow - firstrow + 1; j++) {
      double sum = 0.0;
      for (int k = rowstr[j]; k < rowstr[j + 1]; k++) sum = sum + a[k] * p[colidx[k]];
      q[j] = sum;
    }
    double d = 0.0;
#pragma omp parallel for reduction(+:d)
    for (int j = 1; j <= lastrow - firstrow + 1; j++) d = d + p[j] * q[j];
    double alpha = rho / d, rho0 = rho;
    rho = 0.0;
#pragma omp parallel for reduction(+:rho)
    for (int j = 1; j <= lastrow - firstrow + 1; j++) {
      z[j] = z[j] + alpha * p[j];
      r[j] = r[j] - alpha * q[j];
      rho = rho + r[j] * r[j];
    }
    double beta = rho / rho0;
#pragma omp parallel for
    for (int j = 1; j <= lastrow - firstrow + 1; j++) p[j] = r[j] + beta * p[j];
  }
  double sum = 0.0;
#pragma omp parallel for reduction(+:sum)
  for (int j = 1; j <= lastrow - firstrow + 1; j++) {
    double dd = 0.0;
    for (int k = rowstr[j]; k <= rowstr[j + 1] - 1; k++) dd = dd + a[k] * z[colidx[k]];
    sum = sum + (x[j] - dd) * (x[j] - dd);
  }
  printf("%.15e %.15e\n", sqrt(sum), rho);
  return 0;
}
