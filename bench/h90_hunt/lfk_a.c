/* translate-test: translate=--directives=openmp,translate rtol=1e-12 */
/* Livermore loops 1-12 in C as an OpenMP port marks them: the parallel kernels under
   `parallel for` (private/reduction clauses), the recurrences (5, 6, 11) in translate
   regions without a mapping (they must stay sequential and match bit for bit). */
#include <stdio.h>
#define N 1001
#define NW 101
static double x[2 * N + 20], y[N + 20], z[N + 20], zx[N + 20], u[N + 20], v[2 * N + 20], xz[2 * N + 20];
static double w[NW], b[NW][NW], px[N][25], cx[N][25];
static double u1[2][NW + 1][5], u2[2][NW + 1][5], u3[2][NW + 1][5], du1[NW], du2[NW], du3[NW];

static double total(const double *a, int n)
{
  double s = 0.0;
  for (int k = 0; k < n; k++) s += a[k];
  return s;
}

int main(void)
{
  int n = N;
  for (int k = 0; k < 2 * N + 20; k++) xz[k] = 0.1 + 0.001 * (k % 23);
  for (int k = 0; k < N + 20; k++) {
    x[k] = 0.0;
    y[k] = 1.0 + 0.001 * ((k * 7) % 13);
    z[k] = 0.5 + 0.002 * ((k * 3) % 17);
    zx[k] = 0.25 + 0.003 * ((k * 5) % 11);
    u[k] = 0.125 + 0.001 * ((k * 11) % 19);
    v[k] = 0.01 * (k % 7);
  }
  for (int i = 0; i < NW; i++)
    for (int j = 0; j < NW; j++) b[i][j] = 0.0001 * ((i + 2 * j) % 9);
  for (int j = 0; j < N; j++)
    for (int i = 0; i < 25; i++) {
      px[j][i] = 0.01 * ((i * j) % 7);
      cx[j][i] = 0.02 * ((i + j) % 5);
    }
  for (int l = 0; l < 2; l++)
    for (int j = 0; j < NW + 1; j++)
      for (int i = 0; i < 5; i++) {
        u1[l][j][i] = 0.1 * ((i + j + l) % 4);
        u2[l][j][i] = 0.2 * ((i * j + l) % 3);
        u3[l][j][i] = 0.3 * ((i + 2 * j) % 5);
      }
  double q = 0.5, r = 0.25, t = 0.125;

  /* kernel 1: hydro fragment */
#pragma omp parallel for
  for (int k = 0; k < n; k++)
    x[k] = q + y[k] * (r * zx[k + 10] + t * zx[k + 11]);
  printf("k1  %.15e\n", total(x, n));

  /* kernel 2: ICCG excerpt */
  for (int k = 0; k < 2 * N + 20; k++) v[k] = 0.001 * (k % 5);
  int ii = 512, ipntp = 0, ipnt;
  do {
    ipnt = ipntp;
    ipntp += ii;
    ii /= 2;
#pragma omp parallel for
    for (int k = ipnt + 1; k < ipntp; k += 2) {
      int iw = ipntp + (k - ipnt + 1) / 2;
      x[iw] = x[k] - v[k] * x[k - 1] - v[k + 1] * x[k + 1];
    }
  } while (ii > 1);
  printf("k2  %.15e\n", total(x, n));

  /* kernel 3: inner product */
  q = 0.0;
#pragma omp parallel for reduction(+:q)
  for (int k = 0; k < n; k++) q += z[k] * x[k];
  printf("k3  %.15e\n", q);

  /* kernel 4: banded linear equations */
  int m = (1001 - 7) / 2;
#pragma omp parallel for
  for (int k = 6; k < 1001; k += m) {
    int lw = k - 6;
    double temp = x[k - 1];
    for (int j = 4; j < n; j += 5) {
      temp -= xz[lw] * y[j];
      lw++;
    }
    x[k - 1] = y[4] * temp;
  }
  printf("k4  %.15e %.15e %.15e\n", x[5], x[502], x[999]);

  /* kernel 5: tri-diagonal elimination, below diagonal */
#pragma translate kernel lfk5
  for (int i = 1; i < n; i++) x[i] = z[i] * (y[i] - x[i - 1]);
#pragma translate end kernel
  printf("k5  %.15e\n", total(x, n));

  /* kernel 6: general linear recurrence equations */
#pragma translate kernel lfk6
  for (int i = 1; i < NW; i++) {
    w[i] = 0.01;
    for (int k = 0; k < i; k++) w[i] += b[k][i] * w[(i - k) - 1];
  }
#pragma translate end kernel
  printf("k6  %.15e\n", total(w + 1, NW - 1));

  /* kernel 7: equation of state fragment */
#pragma omp parallel for
  for (int k = 0; k < n; k++)
    x[k] = u[k] + r * (z[k] + r * y[k]) + t * (u[k + 3] + r * (u[k + 2] + r * u[k + 1])
           + t * (u[k + 6] + q * (u[k + 5] + q * u[k + 4])));
  printf("k7  %.15e\n", total(x, n));

  /* kernel 8: ADI integration (nl1/nl2 as the original's plane numbers, constants here) */
  const double a11 = 0.1, a12 = 0.2, a13 = 0.3, a21 = 0.15, a22 = 0.25, a23 = 0.35;
  const double a31 = 0.05, a32 = 0.06, a33 = 0.07, sig = 0.5;
  for (int kx = 1; kx < 3; kx++) {
#pragma omp parallel for
    for (int ky = 1; ky < NW; ky++) {
      du1[ky] = u1[0][ky + 1][kx] - u1[0][ky - 1][kx];
      du2[ky] = u2[0][ky + 1][kx] - u2[0][ky - 1][kx];
      du3[ky] = u3[0][ky + 1][kx] - u3[0][ky - 1][kx];
      u1[1][ky][kx] = u1[0][ky][kx] + a11 * du1[ky] + a12 * du2[ky] + a13 * du3[ky]
          + sig * (u1[0][ky][kx + 1] - 2.0 * u1[0][ky][kx] + u1[0][ky][kx - 1]);
      u2[1][ky][kx] = u2[0][ky][kx] + a21 * du1[ky] + a22 * du2[ky] + a23 * du3[ky]
          + sig * (u2[0][ky][kx + 1] - 2.0 * u2[0][ky][kx] + u2[0][ky][kx - 1]);
      u3[1][ky][kx] = u3[0][ky][kx] + a31 * du1[ky] + a32 * du2[ky] + a33 * du3[ky]
          + sig * (u3[0][ky][kx + 1] - 2.0 * u3[0][ky][kx] + u3[0][ky][kx - 1]);
    }
  }
  printf("k8  %.15e %.15e %.15e\n", total(&u1[1][0][0], 5 * (NW + 1)),
         total(&u2[1][0][0], 5 * (NW + 1)), total(&u3[1][0][0], 5 * (NW + 1)));

  /* kernel 9: integrate predictors */
  const double dm22 = 0.22, dm23 = 0.23, dm24 = 0.24, dm25 = 0.25, dm26 = 0.26,
      dm27 = 0.27, dm28 = 0.28, c0 = 0.5;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    px[i][0] = dm28 * px[i][12] + dm27 * px[i][11] + dm26 * px[i][10] + dm25 * px[i][9]
        + dm24 * px[i][8] + dm23 * px[i][7] + dm22 * px[i][6] + c0 * (px[i][4] + px[i][5])
        + px[i][2];
  double s9 = 0.0;
  for (int i = 0; i < n; i++) s9 += px[i][0];
  printf("k9  %.15e\n", s9);

  /* kernel 10: difference predictors */
  double ar, br, cr;
#pragma omp parallel for private(ar, br, cr)
  for (int i = 0; i < n; i++) {
    ar = cx[i][4];
    br = ar - px[i][4];
    px[i][4] = ar;
    cr = br - px[i][5];
    px[i][5] = br;
    ar = cr - px[i][6];
    px[i][6] = cr;
    br = ar - px[i][7];
    px[i][7] = ar;
    cr = br - px[i][8];
    px[i][8] = br;
    ar = cr - px[i][9];
    px[i][9] = cr;
    br = ar - px[i][10];
    px[i][10] = ar;
    cr = br - px[i][11];
    px[i][11] = br;
    px[i][13] = cr - px[i][12];
    px[i][12] = cr;
  }
  double s10 = 0.0;
  for (int i = 0; i < n; i++)
    for (int l = 4; l < 14; l++) s10 += px[i][l];
  printf("k10 %.15e %.15e\n", s10, px[n - 1][13]);

  /* kernel 11: first sum */
#pragma translate kernel lfk11
  x[0] = y[0];
  for (int k = 1; k < n; k++) x[k] = x[k - 1] + y[k];
#pragma translate end kernel
  printf("k11 %.15e\n", x[n - 1]);

  /* kernel 12: first difference */
#pragma omp parallel for
  for (int k = 0; k < n; k++) x[k] = y[k + 1] - y[k];
  printf("k12 %.15e\n", total(x, n));
  return 0;
}
