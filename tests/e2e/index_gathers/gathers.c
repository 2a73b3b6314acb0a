/* translate-test: translate=--directives=openmp rtol=1e-14 */
/* Reads through index tables (h86): CSR SpMV with rowptr bounds written in the for and
   through const locals, ELL with -1 padding under a guard, a permutation, srad's clamped
   neighbour rows J[iN[i]*cols + j], a 64-bit table, a declared array read through a table. */
#include <stdio.h>
#include <stdlib.h>
#define N 1200
#define W 5

static double table_out[N];

static void csr(int nrow, const int *restrict rowptr, const int *restrict col,
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

static void csr_locals(int nrow, const int *restrict rowptr, const int *restrict col,
                       const double *restrict val, const double *restrict x,
                       double *restrict y)
{
#pragma omp parallel for
  for (int i = 0; i < nrow; i++) {
    const int start = rowptr[i], end = rowptr[i + 1];
    double sum = 0.0;
    for (int k = start; k < end; k++)
      sum += val[k] * x[col[k]];
    y[i] += sum;
  }
}

static void ell(int n, int w, const int *restrict c, const double *restrict v,
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

static void rows(int nr, int nc, const int *restrict iN, const int *restrict iS,
                 const float *restrict J, float *restrict dN)
{
#pragma omp parallel for
  for (int i = 0; i < nr; i++)
    for (int j = 0; j < nc; j++)
      dN[i * nc + j] = J[iN[i] * nc + j] - 2.0f * J[iS[i] * nc + j];
}

static void wide(long n, const long *restrict idx, const double *restrict a,
                 double *restrict b)
{
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    b[i] += a[idx[i]];
}

static void declared(int n, const int perm[n], const double a[n], double *restrict b)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    b[i] = a[perm[i]] + table_out[perm[(i + 1) % n] % N];
}

int main(void)
{
  int *rowptr = malloc(sizeof(int) * (N + 1)), *col = malloc(sizeof(int) * N * W);
  int *ec = malloc(sizeof(int) * N * W), *perm = malloc(sizeof(int) * N);
  double *val = malloc(sizeof(double) * N * W), *ev = malloc(sizeof(double) * N * W);
  double *x = malloc(sizeof(double) * N), *y = malloc(sizeof(double) * N);
  double *z = malloc(sizeof(double) * N);
  long *idx = malloc(sizeof(long) * N);
  const int R = 40, C = 30;
  int *iN = malloc(sizeof(int) * R), *iS = malloc(sizeof(int) * R);
  float *J = malloc(sizeof(float) * R * C), *dN = malloc(sizeof(float) * R * C);
  int nnz = 0;
  for (int i = 0; i < N; i++) {
    rowptr[i] = nnz;
    int len = 1 + (i * 7) % W;
    for (int k = 0; k < W; k++) {
      int j = (i * 13 + k * 611) % N;
      ec[k * N + i] = k < len ? j : -1;
      ev[k * N + i] = k < len ? 1.0 / (1 + k + i % 4) : 0.0;
      if (k < len) { col[nnz] = j; val[nnz] = ev[k * N + i]; nnz++; }
    }
    perm[i] = (int)((i * 2654435761u) % N);
    idx[i] = (i * 37L) % N;
    x[i] = 1.0 + (i % 10) * 0.1;
    table_out[i] = 0.25 * (i % 17);
  }
  rowptr[N] = nnz;
  for (int i = 0; i < R; i++) { iN[i] = i > 0 ? i - 1 : 0; iS[i] = i < R - 1 ? i + 1 : R - 1; }
  for (int k = 0; k < R * C; k++) J[k] = (float)(k % 97) * 0.25f;
  csr(N, rowptr, col, val, x, y);
  csr_locals(N, rowptr, col, val, y, y + 0 == y ? z : z);
  ell(N, W, ec, ev, z, x);
  wide(N, idx, y, x);
  declared(N, perm, x, y);
  rows(R, C, iN, iS, J, dN);
  double s = 0.0, t = 0.0;
  for (int i = 0; i < N; i++) s += y[i] * (1 + i % 3) + z[i];
  for (int k = 0; k < R * C; k++) t += dN[k] * (1 + k % 5);
  printf("%.15e %.9g %.15e %.15e\n", s, t, y[7], x[N - 1]);
  return 0;
}
