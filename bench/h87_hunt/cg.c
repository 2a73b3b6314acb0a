/* translate-test: rtol=1e-12 */
/* NPB CG conj_grad with the translator's own pragmas: ONE region holding the whole cgit
   iteration loop (the host loop of the region), matvec through rowstr/colidx with 0-based
   CSR, dot products into scalars, axpy updates; the iteration loop's scalars (rho, alpha,
   beta) live in the region. */
#include <math.h>
#include <stdio.h>
#define NA 700
#define NONZER 7
#define NZ (NA * (NONZER + 1))
static int rowstr[NA + 1], colidx[NZ];
static double a[NZ], x[NA], z[NA], p[NA], q[NA], r[NA];

static double conj_grad(int n)
{
  double rho = 0.0, sum = 0.0;
#pragma translate kernel cg_iter
  for (int j = 0; j < n; j++) {
    q[j] = 0.0;
    z[j] = 0.0;
    r[j] = x[j];
    p[j] = x[j];
  }
  for (int j = 0; j < n; j++) rho += r[j] * r[j];
  for (int cgit = 0; cgit < 10; cgit++) {
    for (int j = 0; j < n; j++) {
      double s = 0.0;
      for (int k = rowstr[j]; k < rowstr[j + 1]; k++) s += a[k] * p[colidx[k]];
      q[j] = s;
    }
    double d = 0.0;
    for (int j = 0; j < n; j++) d += p[j] * q[j];
    double alpha = rho / d;
    double rho0 = rho;
    rho = 0.0;
    for (int j = 0; j < n; j++) {
      z[j] += alpha * p[j];
      r[j] -= alpha * q[j];
    }
    for (int j = 0; j < n; j++) rho += r[j] * r[j];
    double beta = rho / rho0;
    for (int j = 0; j < n; j++) p[j] = r[j] + beta * p[j];
  }
  for (int j = 0; j < n; j++) {
    double dd = 0.0;
    for (int k = rowstr[j]; k < rowstr[j + 1]; k++) dd += a[k] * z[colidx[k]];
    sum += (x[j] - dd) * (x[j] - dd);
  }
#pragma translate end kernel
  return sqrt(sum);
}

int main(void)
{
  int nnz = 0;
  for (int j = 0; j < NA; j++) {
    rowstr[j] = nnz;
    for (int k = 0; k <= NONZER; k++) {
      colidx[nnz] = k == 0 ? j : (j * 29 + k * 61) % NA;
      a[nnz] = (k == 0 ? 15.0 : -1.0 / (k + 2)) + 0.002 * (j % 3);
      nnz++;
    }
  }
  rowstr[NA] = nnz;
  for (int j = 0; j < NA; j++) x[j] = 1.0 + 0.01 * (j % 4);
  for (int it = 0; it < 2; it++) {
    double rn = conj_grad(NA);
    double zeta = 0.0;
    for (int j = 0; j < NA; j++) zeta += x[j] * z[j];
    for (int j = 0; j < NA; j++) x[j] = z[j] / sqrt(fabs(zeta) + 1.0);
    printf("%d %.15e %.15e\n", it, rn, zeta);
  }
  printf("%.15e %.15e\n", z[3], z[NA - 1]);
  return 0;
}
