/* translate-test: translate=--directives=openmp rtol=1e-14 */
/* ELL and CSR SpMV (padded columns -1), power iterations in a do/while until converged */
#include <math.h>
#include <stdio.h>
#define N 2000
#define W 7
static int ecol[W * N];
static double eval[W * N];
static int rowptr[N + 1], col[W * N];
static double val[W * N], x[N], y[N], z[N];

static void ell_spmv(int n, int w, const int *restrict c, const double *restrict v,
                     const double *restrict in, double *restrict out)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int k = 0; k < w; k++) {
      int j = c[k * n + i];
      if (j >= 0)
        s += v[k * n + i] * in[j];
    }
    out[i] = s;
  }
}

int main(void)
{
  int nnz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = nnz;
    int len = 1 + (i * 5) % W;
    for (int k = 0; k < W; k++) {
      int j = (i * 31 + k * 977) % N;
      ecol[k * N + i] = k < len ? j : -1;
      eval[k * N + i] = k < len ? 1.0 / (1 + k + (i % 3)) : 0.0;
      if (k < len) { col[nnz] = j; val[nnz] = eval[k * N + i]; nnz++; }
    }
  }
  rowptr[N] = nnz;
  for (int i = 0; i < N; i++) x[i] = 1.0;
  int it = 0;
  double diff;
  do {
    ell_spmv(N, W, ecol, eval, x, y);
#pragma omp parallel for
    for (int i = 0; i < N; i++) {
      double s = 0.0;
      for (int k = rowptr[i]; k < rowptr[i + 1]; k++)
        s += val[k] * x[col[k]];
      z[i] = s;
    }
    double nrm = 0.0;
    diff = 0.0;
#pragma omp parallel for reduction(+:nrm) reduction(max:diff)
    for (int i = 0; i < N; i++) {
      nrm += y[i] * y[i];
      diff = fmax(diff, fabs(y[i] - z[i]));
    }
    nrm = sqrt(nrm);
#pragma omp parallel for
    for (int i = 0; i < N; i++) x[i] = y[i] / nrm;
    it++;
  } while (it < 30 && diff < 1e300);
  printf("%d %.17g %.17g %.17g\n", it, diff, x[0], x[N - 1]);
  return 0;
}
