/* translate-test: translate=--directives=openmp,translate */
/* Livermore loops in C as a careless OpenMP port marks them: every `parallel for` below is
   wrong (a recurrence, a shared accumulator, a scatter without atomic, a shared work array,
   kernel 2's off-by-one level index).  Each must be refused at its directive with a witness. */
#include <stdio.h>
#define N 101
static double x[2 * N + 40], y[N + 1], z[N + 1], w[N], b[N][N], du[N], u[N + 1][5], h[64];
static double sa[N], sb[N], b5[N], za[8][N + 1], zr[8][N + 1], v[2 * N + 40];
static int ir[N];

int main(void)
{
  int n = N;
  for (int k = 0; k < N + 1; k++) {
    x[k] = 0.01 * (k % 7);
    y[k] = 1.0 + 0.01 * (k % 5);
    z[k] = 0.5 + 0.01 * (k % 3);
  }
  for (int k = 0; k < N; k++) {
    w[k] = 0.01;
    sa[k] = 0.1 * (k % 4);
    sb[k] = 0.2;
    ir[k] = (k * 7) % 64;
    for (int i = 0; i < N; i++) b[k][i] = 0.001 * ((i + k) % 5);
  }
  double q = 0.0;
  /* kernel 3 without its reduction clause */
#pragma omp parallel for
  for (int k = 0; k < n; k++) q += z[k] * x[k];
  /* kernel 2 with the level's first written element one too low (reads x[ipntp]) */
  int ii = 64, ipntp = 0, ipnt;
  do {
    ipnt = ipntp;
    ipntp += ii;
    ii /= 2;
#pragma omp parallel for
    for (int k = ipnt + 1; k < ipntp; k += 2) {
      int iw = ipntp - 1 + (k - ipnt + 1) / 2;
      x[iw] = x[k] - v[k] * x[k - 1] - v[k + 1] * x[k + 1];
    }
  } while (ii > 1);
  /* kernel 5: tri-diagonal elimination */
#pragma omp parallel for
  for (int i = 1; i < n; i++) x[i] = z[i] * (y[i] - x[i - 1]);
  /* kernel 6: the outer loop of the general linear recurrence */
#pragma omp parallel for
  for (int i = 1; i < n; i++)
    for (int k = 0; k < i; k++) w[i] += b[k][i] * w[(i - k) - 1];
  /* kernel 8: the kx loop with du shared */
#pragma omp parallel for
  for (int kx = 1; kx < 3; kx++)
    for (int ky = 1; ky < n; ky++) {
      du[ky] = u[ky + 1][kx] - u[ky - 1][kx];
      u[ky][kx] += 0.1 * du[ky];
    }
  /* kernel 11: first sum */
#pragma omp parallel for
  for (int k = 1; k < n; k++) x[k] = x[k - 1] + y[k];
  /* kernel 13/14's scatter without atomic */
#pragma omp parallel for
  for (int k = 0; k < n; k++) h[ir[k]] += y[k];
  /* kernel 19: stb5 carried */
  double stb5 = 0.0136;
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
    b5[k] = sa[k] + stb5 * sb[k];
    stb5 = b5[k] - stb5;
  }
  /* kernel 23's inner loop */
  for (int j = 1; j < 7; j++) {
#pragma omp parallel for
    for (int k = 1; k < n; k++)
      za[j][k] += 0.175 * (za[j][k - 1] * zr[j][k] + za[j][k + 1] - za[j][k]);
  }
  /* kernel 24 with m shared */
  int m = 0;
#pragma omp parallel for
  for (int k = 1; k < n; k++)
    if (x[k] < x[m]) m = k;
  printf("%.15e %.15e %.15e %d\n", q, x[n - 1], h[3], m);
  return 0;
}
