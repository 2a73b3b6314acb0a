/* translate-test: translate=--directives=openmp,translate rtol=1e-12 */
/* Livermore loops 13-24 in C as an OpenMP port marks them: PIC scatters with `omp atomic`,
   casual Fortran and explicit hydro under `parallel for`, Planckian distribution (exp), the
   recurrences and searches (16, 17, 19, 20, 23, 24) in translate regions without a mapping
   (sequential, bit for bit), 21 (matrix*matrix) mapped automatically. */
#include <math.h>
#include <stdio.h>
#define N 1001
#define NP 64
#define JN 101
#define KN 6
static double p[NP][4], bb[64][64], cc[64][64], h[64][64], yy[N + 40], zz1[N + 40];
static double ex[N + 40], dex[N + 40], grd[N + 40], vx[N], xx[N + 1], xi[N], ex1[N], dex1[N];
static double rx[N], rh[2100];
static int ir[N], ix[N], e[96], f[96], zone[N + 1];
static double vy[8][JN + 1], vh[8][JN + 1], vf[8][JN + 1], vg[8][JN + 1], vs[8][JN + 1];
static double za[KN + 1][JN + 1], zb[KN + 1][JN + 1], zr[KN + 1][JN + 1], zu[KN + 1][JN + 1];
static double zv[KN + 1][JN + 1], zz[KN + 1][JN + 1], zp[KN + 1][JN + 1], zq[KN + 1][JN + 1];
static double zm[KN + 1][JN + 1];
static double vlr[N], vlin[N], vxne[N], vxnd[N], ve3[N], vsp[N], vstp[N], plan[N + 1];
static double sa[N], sb[N], b5[N], x[N + 1], y[N + 1], g[N + 1], u[N], v[N], w[N], z[N];
static double vx20[N], px[N][25], vv[25][25], cx[N][25], uu[N], xw[N];

static double total(const double *a, int n)
{
  double s = 0.0;
  for (int k = 0; k < n; k++) s += a[k];
  return s;
}

int main(void)
{
  int n = N;
  for (int ip = 0; ip < NP; ip++) {
    p[ip][0] = 1.0 + (ip * 7) % 60;
    p[ip][1] = 2.0 + (ip * 5) % 59;
    p[ip][2] = 0.1 * (ip % 3);
    p[ip][3] = 0.2 * (ip % 5);
  }
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++) {
      bb[i][j] = 0.5 * ((i + j) % 3);
      cc[i][j] = 0.25 * ((i * j) % 4);
    }
  for (int k = 0; k < N + 40; k++) {
    yy[k] = 0.01 * (k % 17);
    zz1[k] = 0.02 * (k % 13);
    ex[k] = 0.001 * (k % 7);
    dex[k] = 0.002 * (k % 5);
    grd[k] = 1.0 + (k * 3) % 40;
  }
  for (int k = 0; k < 96; k++) {
    e[k] = k % 3;
    f[k] = k % 2;
  }

  /* kernel 13: 2-D particle in cell */
#pragma omp parallel for
  for (int ip = 0; ip < NP; ip++) {
    int i1 = (int)p[ip][0], j1 = (int)p[ip][1];
    i1 &= 63;
    j1 &= 63;
    p[ip][2] += bb[j1][i1];
    p[ip][3] += cc[j1][i1];
    p[ip][0] += p[ip][2];
    p[ip][1] += p[ip][3];
    int i2 = (int)p[ip][0], j2 = (int)p[ip][1];
    i2 &= 63;
    j2 &= 63;
    p[ip][0] += yy[i2 + 32];
    p[ip][1] += zz1[j2 + 32];
    i2 += e[i2 + 32];
    j2 += f[j2 + 32];
#pragma omp atomic
    h[j2][i2] += 1.0;
  }
  printf("k13 %.15e %.15e %.15e\n", total(&p[0][0], 4 * NP), total(&h[0][0], 64 * 64), h[6][4]);

  /* kernel 14: 1-D particle in cell */
  const double flx = 0.001;
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
    vx[k] = 0.0;
    xx[k] = 0.0;
    ix[k] = (int)grd[k];
    xi[k] = (double)ix[k];
    ex1[k] = ex[ix[k] - 1];
    dex1[k] = dex[ix[k] - 1];
  }
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
    vx[k] = vx[k] + ex1[k] + (xx[k] - xi[k]) * dex1[k];
    xx[k] = xx[k] + vx[k] + flx;
    ir[k] = (int)xx[k];
    rx[k] = xx[k] - ir[k];
    ir[k] = (ir[k] & 2047) + 1;
    xx[k] = rx[k] + ir[k];
  }
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
#pragma omp atomic
    rh[ir[k] - 1] += 1.0 - rx[k];
#pragma omp atomic
    rh[ir[k]] += rx[k];
  }
  printf("k14 %.15e %.15e %.15e\n", total(xx, n), total(rh, 2100), rh[1]);

  /* kernel 15: casual Fortran, in C */
  for (int j = 0; j < 8; j++)
    for (int k = 0; k < JN + 1; k++) {
      vh[j][k] = 1.0 + 0.01 * ((k * j) % 11);
      vf[j][k] = 0.5 + 0.02 * ((k + 3 * j) % 7);
      vg[j][k] = 0.25 + 0.03 * ((2 * k + j) % 5);
    }
  const double ar = 0.053, br = 0.073;
#pragma omp parallel for
  for (int j = 1; j < 7; j++)
    for (int k = 1; k < JN; k++) {
      double t, r, s;
      if (j >= 6) {
        vy[j][k] = 0.0;
        continue;
      }
      t = vh[j + 1][k] > vh[j][k] ? ar : br;
      if (vf[j][k] < vf[j][k - 1]) {
        r = fmax(vh[j][k - 1], vh[j + 1][k - 1]);
        s = vf[j][k - 1];
      } else {
        r = fmax(vh[j][k], vh[j + 1][k]);
        s = vf[j][k];
      }
      vy[j][k] = sqrt(vg[j][k] * vg[j][k] + r * r) * t / s;
      if (k >= JN - 1) {
        vs[j][k] = 0.0;
        continue;
      }
      if (vf[j][k] < vf[j - 1][k]) {
        r = fmax(vg[j - 1][k], vg[j - 1][k + 1]);
        s = vf[j - 1][k];
        t = br;
      } else {
        r = fmax(vg[j][k], vg[j][k + 1]);
        s = vf[j][k];
        t = ar;
      }
      vs[j][k] = sqrt(vh[j][k] * vh[j][k] + r * r) * t / s;
    }
  printf("k15 %.15e %.15e\n", total(&vy[0][0], 8 * (JN + 1)), total(&vs[0][0], 8 * (JN + 1)));

  /* kernel 16: Monte Carlo search: the first zone whose plan falls below a threshold */
  for (int k = 0; k < N + 1; k++) {
    zone[k] = (k * 37) % n;
    plan[k] = 10.0 - 0.01 * ((k * 13) % 1000);
  }
  double tt = 0.02;
  int kfound = n;
  /* the original's search with break is refused in C (lfk16_break.c): a minimum instead */
#pragma translate kernel lfk16
  for (int k = 0; k < n; k++)
    if (plan[zone[k]] < tt && k < kfound) kfound = k;
#pragma translate end kernel
  printf("k16 %d\n", kfound);

  /* kernel 17: implicit, conditional computation */
  for (int k = 0; k < n; k++) {
    vlr[k] = 0.1 + 0.001 * (k % 11);
    vlin[k] = 0.2 + 0.002 * (k % 7);
    vxne[k] = 0.3 + 0.003 * (k % 5);
    vsp[k] = 0.4 + 0.001 * (k % 3);
    vstp[k] = 0.05 * (k % 4);
  }
  double scale = 5.0 / 3.0, xnm = 1.0 / 3.0, e6 = 1.03 / 3.07;
#pragma translate kernel lfk17
  for (int i = n - 1; i >= 1; i--) {
    double e3 = xnm * vlr[i] + vlin[i];
    double xnei = vxne[i];
    vxnd[i] = e6;
    double xnc = scale * e3;
    if (xnm > xnc || xnei > xnc) {
      e6 = xnm * vsp[i] + vstp[i];
      vxne[i] = e6;
      xnm = e6;
      ve3[i] = e6;
    } else {
      ve3[i] = e3;
      e6 = e3 + e3 - xnm;
      vxne[i] = e3 + e3 - xnei;
      xnm = e6;
    }
  }
#pragma translate end kernel
  printf("k17 %.15e %.15e %.15e %.15e\n", total(vxne + 1, n - 1), total(ve3 + 1, n - 1),
         total(vxnd + 1, n - 1), xnm);

  /* kernel 18: 2-D explicit hydro */
  for (int k = 0; k < KN + 1; k++)
    for (int j = 0; j < JN + 1; j++) {
      zp[k][j] = 0.1 + 0.01 * ((j + k) % 7);
      zq[k][j] = 0.2 + 0.01 * ((j * k) % 5);
      zr[k][j] = 1.0 + 0.01 * ((2 * j + k) % 3);
      zm[k][j] = 1.5 + 0.02 * ((j + 3 * k) % 4);
      zz[k][j] = 0.3 + 0.01 * (j % 9);
      zu[k][j] = 0.01 * ((j + k) % 6);
      zv[k][j] = 0.02 * ((j - k + 10) % 6);
    }
  double t = 0.0037, s = 0.0041;
#pragma omp parallel for
  for (int k = 1; k < KN; k++)
    for (int j = 1; j < JN; j++) {
      za[k][j] = (zp[k + 1][j - 1] + zq[k + 1][j - 1] - zp[k][j - 1] - zq[k][j - 1])
          * (zr[k][j] + zr[k][j - 1]) / (zm[k][j - 1] + zm[k + 1][j - 1]);
      zb[k][j] = (zp[k][j - 1] + zq[k][j - 1] - zp[k][j] - zq[k][j])
          * (zr[k][j] + zr[k - 1][j]) / (zm[k][j] + zm[k][j - 1]);
    }
#pragma omp parallel for
  for (int k = 1; k < KN; k++)
    for (int j = 1; j < JN; j++) {
      zu[k][j] += s * (za[k][j] * (zz[k][j] - zz[k][j + 1]) - za[k][j - 1] * (zz[k][j] - zz[k][j - 1])
                       - zb[k][j] * (zz[k][j] - zz[k - 1][j]) + zb[k + 1][j] * (zz[k][j] - zz[k + 1][j]));
      zv[k][j] += s * (za[k][j] * (zr[k][j] - zr[k][j + 1]) - za[k][j - 1] * (zr[k][j] - zr[k][j - 1])
                       - zb[k][j] * (zr[k][j] - zr[k - 1][j]) + zb[k + 1][j] * (zr[k][j] - zr[k + 1][j]));
    }
#pragma omp parallel for
  for (int k = 1; k < KN; k++)
    for (int j = 1; j < JN; j++) {
      zr[k][j] += t * zu[k][j];
      zz[k][j] += t * zv[k][j];
    }
  int m2 = (KN + 1) * (JN + 1);
  printf("k18 %.15e %.15e %.15e %.15e\n", total(&za[0][0], m2), total(&zb[0][0], m2),
         total(&zr[0][0], m2), total(&zz[0][0], m2));

  /* kernel 19: general linear recurrence */
  for (int k = 0; k < n; k++) {
    sa[k] = 0.01 * (k % 7);
    sb[k] = 0.5 + 0.01 * (k % 9);
  }
  double stb5 = 0.0136;
#pragma translate kernel lfk19
  for (int k = 0; k < n; k++) {
    b5[k] = sa[k] + stb5 * sb[k];
    stb5 = b5[k] - stb5;
  }
  for (int i = 1; i <= n; i++) {
    int k = n - i;
    b5[k] = sa[k] + stb5 * sb[k];
    stb5 = b5[k] - stb5;
  }
#pragma translate end kernel
  printf("k19 %.15e %.15e\n", total(b5, n), stb5);

  /* kernel 20: discrete ordinates transport */
  for (int k = 0; k < N + 1; k++) {
    y[k] = 1.0 + 0.01 * (k % 5);
    g[k] = 0.1 + 0.01 * (k % 3);
    xx[k] = 0.5;
  }
  for (int k = 0; k < n; k++) {
    u[k] = 0.1 * (k % 4);
    v[k] = 0.2 + 0.01 * (k % 6);
    w[k] = 0.3;
    z[k] = 0.05 * (k % 8);
    vx20[k] = 1.0 + 0.01 * (k % 2);
  }
  const double dk = 0.2, ss = 0.1, t20 = 0.6;
#pragma translate kernel lfk20
  for (int k = 0; k < n; k++) {
    double di = y[k] - g[k] / (xx[k] + dk);
    double dn = 0.2;
    if (di != 0.0) dn = fmax(ss, fmin(z[k] / di, t20));
    x[k] = ((w[k] + v[k] * dn) * xx[k] + u[k]) / (vx20[k] + v[k] * dn);
    xx[k + 1] = (x[k] - xx[k]) * dn + xx[k];
  }
#pragma translate end kernel
  printf("k20 %.15e %.15e\n", total(x, n), xx[n]);

  /* kernel 21: matrix * matrix product */
  for (int j = 0; j < n; j++)
    for (int i = 0; i < 25; i++) cx[j][i] = 0.01 * ((i + j + 2) % 7);
  for (int j = 0; j < 25; j++)
    for (int i = 0; i < 25; i++) vv[j][i] = 0.02 * (((i + 1) * (j + 1)) % 5);
#pragma translate kernel lfk21
  for (int k = 0; k < 25; k++)
    for (int i = 0; i < 25; i++)
      for (int j = 0; j < n; j++) px[j][i] += vv[k][i] * cx[j][k];
#pragma translate end kernel
  printf("k21 %.15e %.15e\n", total(&px[0][0], 25 * n), px[n - 1][24]);

  /* kernel 22: Planckian distribution */
  for (int k = 0; k < n; k++) {
    uu[k] = 0.1 + 0.01 * (k % 9);
    v[k] = 0.5 + 0.01 * (k % 4);
    xw[k] = 1.0 + 0.001 * (k % 13);
  }
#pragma omp parallel for
  for (int k = 0; k < n; k++) {
    y[k] = uu[k] / v[k];
    w[k] = xw[k] / (exp(y[k]) - 1.0);
  }
  printf("k22 %.15e\n", total(w, n));

  /* kernel 23: 2-D implicit hydro */
  for (int k = 0; k < KN + 1; k++)
    for (int j = 0; j < JN + 1; j++) {
      za[k][j] = 0.1 * ((j + 2 * k) % 7);
      zb[k][j] = 0.1 + 0.001 * (j % 3);
      zr[k][j] = 0.1 + 0.001 * (k % 3);
      zu[k][j] = 0.1 + 0.001 * ((j + k) % 3);
      zv[k][j] = 0.1 + 0.001 * ((j * k) % 3);
      zz[k][j] = 0.01 * (j % 5);
    }
#pragma translate kernel lfk23
  for (int j = 1; j < KN; j++)
    for (int k = 1; k < JN; k++) {
      double qa = za[j + 1][k] * zr[j][k] + za[j - 1][k] * zb[j][k] + za[j][k + 1] * zu[j][k]
          + za[j][k - 1] * zv[j][k] + zz[j][k];
      za[j][k] += 0.175 * (qa - za[j][k]);
    }
#pragma translate end kernel
  printf("k23 %.15e\n", total(&za[0][0], m2));

  /* kernel 24: location of the first minimum */
  for (int k = 0; k < n; k++) x[k] = 1.0 + 0.001 * ((k * 37) % 101);
  x[n / 2] = -1.0;
  x[n / 3] = -1.0;
  int m = 0;
#pragma translate kernel lfk24
  for (int k = 1; k < n; k++)
    if (x[k] < x[m]) m = k;
#pragma translate end kernel
  double xmin = x[0];
  int mloc = 0;
#pragma translate kernel lfk24b
  for (int k = 1; k < n; k++)
    if (x[k] < xmin) {
      xmin = x[k];
      mloc = k;
    }
#pragma translate end kernel
  printf("k24 %d %d %.15e\n", m, mloc, xmin);
  return 0;
}
