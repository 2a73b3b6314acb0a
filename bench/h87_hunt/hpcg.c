/* translate-test: translate=--directives=openmp rtol=1e-12 */
/* HPCG-like on a 2-D 5-point matrix in ELL-ish CSR: SpMV under parallel for, the symmetric
   Gauss-Seidel forward/backward sweeps (each row reads rows already updated in this sweep:
   a region of the translator's own pragmas, which must keep it sequential), then a Jacobi
   iteration with a convergence check (while loop over a max-norm reduction). */
#include <math.h>
#include <stdio.h>
#define NXY 24
#define N (NXY * NXY)
static int rowptr[N + 1], cols[5 * N];
static double vals[5 * N], diag[N], x[N], b[N], y[N], xn[N];

static void symgs(int n)
{
#pragma translate kernel symgs_fwd
  for (int i = 0; i < n; i++) {
    double sum = b[i];
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) sum -= vals[k] * x[cols[k]];
    sum += x[i] * diag[i];
    x[i] = sum / diag[i];
  }
#pragma translate end kernel
#pragma translate kernel symgs_bwd
  for (int i = n - 1; i >= 0; i--) {
    double sum = b[i];
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) sum -= vals[k] * x[cols[k]];
    sum += x[i] * diag[i];
    x[i] = sum / diag[i];
  }
#pragma translate end kernel
}

int main(void)
{
  int nnz = 0;
  for (int iy = 0; iy < NXY; iy++)
    for (int ix = 0; ix < NXY; ix++) {
      int i = iy * NXY + ix;
      rowptr[i] = nnz;
      const int dx[5] = {0, -1, 1, 0, 0}, dy[5] = {0, 0, 0, -1, 1};
      for (int t = 0; t < 5; t++) {
        int jx = ix + dx[t], jy = iy + dy[t];
        if (jx < 0 || jx >= NXY || jy < 0 || jy >= NXY) continue;
        cols[nnz] = jy * NXY + jx;
        vals[nnz] = t == 0 ? 4.2 : -1.0;
        if (t == 0) diag[i] = vals[nnz];
        nnz++;
      }
      b[i] = 1.0 + 0.1 * ((ix * 3 + iy) % 7);
      x[i] = 0.0;
    }
  rowptr[N] = nnz;
  for (int sweep = 0; sweep < 3; sweep++) symgs(N);
  double rn = 0.0;
#pragma omp parallel for reduction(+:rn)
  for (int i = 0; i < N; i++) {
    double s = 0.0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += vals[k] * x[cols[k]];
    y[i] = s;
    rn += (b[i] - s) * (b[i] - s);
  }
  printf("symgs: %.15e %.15e %.15e\n", sqrt(rn), x[0], x[N / 2 + 3]);
  /* Jacobi until the max-norm of the update falls below tol */
  for (int i = 0; i < N; i++) x[i] = 0.0;
  double diff = 1.0;
  int iters = 0;
  while (diff > 1e-6 && iters < 500) {
    diff = 0.0;
#pragma omp parallel for reduction(max:diff)
    for (int i = 0; i < N; i++) {
      double s = b[i];
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        if (cols[k] != i) s -= vals[k] * x[cols[k]];
      xn[i] = s / diag[i];
      diff = fmax(diff, fabs(xn[i] - x[i]));
    }
#pragma omp parallel for
    for (int i = 0; i < N; i++) x[i] = xn[i];
    iters++;
  }
  printf("jacobi: %d %.15e %.15e %.15e\n", iters, diff, x[0], x[N - 1]);
  return 0;
}
