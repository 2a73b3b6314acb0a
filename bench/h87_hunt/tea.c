/* translate-test: translate=--directives=openacc rtol=1e-12 */
/* TeaLeaf/CloverLeaf-like in C with OpenACC: a data region around the CG loop, halo'd
   2-D arrays as flat pointers with a row stride (x[(k)*(nx+4) + j] via a macro),
   cg_calc_w with one reduction, cg_calc_ur with two arrays written and two reductions
   (rrn and a max of |r|), and the Chebyshev-like fixed step. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#define NXT 26
#define NYT 20
#define HALO 2
#define W (NXT + 2 * HALO)
#define IDX(j, k) ((k + HALO) * W + (j + HALO))

int main(void)
{
  int size = W * (NYT + 2 * HALO);
  /* restrict: without it the translator must assume the pointers may overlap (refused,
     naming the pair and the fix) */
  double *restrict u = calloc(size, sizeof(double)), *restrict u0 = calloc(size, sizeof(double));
  double *restrict p = calloc(size, sizeof(double)), *restrict r = calloc(size, sizeof(double));
  double *restrict w = calloc(size, sizeof(double)), *restrict kx = calloc(size, sizeof(double));
  double *restrict ky = calloc(size, sizeof(double));
  const double rx = 0.25, ry = 0.35;
  for (int k = -HALO; k < NYT + HALO; k++)
    for (int j = -HALO; j < NXT + HALO; j++) {
      u0[IDX(j, k)] = 2.0 + 0.1 * ((j * 7 + k * 3 + 40) % 9);
      u[IDX(j, k)] = u0[IDX(j, k)];
      kx[IDX(j, k)] = 1.0 + 0.05 * ((j + 2 * k + 20) % 3);
      ky[IDX(j, k)] = 1.0 + 0.03 * ((3 * j + k + 20) % 5);
    }
  double rro = 0.0, rrn = 0.0, rmax = 0.0;
#pragma acc data copy(u[0:size]) copyin(u0[0:size], kx[0:size], ky[0:size]) \
    create(p[0:size], r[0:size], w[0:size])
  {
    /* create gives uninitialised device memory: the halos of p are read below, so zero the
       arrays on the device first (the first version did not, and read garbage on PoCL, as
       an OpenACC compiler's build would) */
#pragma acc parallel loop
    for (int t = 0; t < size; t++) {
      p[t] = 0.0;
      r[t] = 0.0;
      w[t] = 0.0;
    }
#pragma acc parallel loop collapse(2) reduction(+:rro)
    for (int k = 0; k < NYT; k++)
      for (int j = 0; j < NXT; j++) {
        double smvp = (1.0 + rx * (kx[IDX(j + 1, k)] + kx[IDX(j, k)])
                       + ry * (ky[IDX(j, k + 1)] + ky[IDX(j, k)])) * u[IDX(j, k)]
                      - rx * (kx[IDX(j + 1, k)] * u[IDX(j + 1, k)] + kx[IDX(j, k)] * u[IDX(j - 1, k)])
                      - ry * (ky[IDX(j, k + 1)] * u[IDX(j, k + 1)] + ky[IDX(j, k)] * u[IDX(j, k - 1)]);
        w[IDX(j, k)] = smvp;
        r[IDX(j, k)] = u0[IDX(j, k)] - smvp;
        p[IDX(j, k)] = r[IDX(j, k)];
        rro += r[IDX(j, k)] * r[IDX(j, k)];
      }
    for (int it = 0; it < 10; it++) {
      double pw = 0.0;
#pragma acc parallel loop collapse(2) reduction(+:pw) present(p, w, kx, ky)
      for (int k = 0; k < NYT; k++)
        for (int j = 0; j < NXT; j++) {
          double smvp = (1.0 + rx * (kx[IDX(j + 1, k)] + kx[IDX(j, k)])
                         + ry * (ky[IDX(j, k + 1)] + ky[IDX(j, k)])) * p[IDX(j, k)]
                        - rx * (kx[IDX(j + 1, k)] * p[IDX(j + 1, k)] + kx[IDX(j, k)] * p[IDX(j - 1, k)])
                        - ry * (ky[IDX(j, k + 1)] * p[IDX(j, k + 1)] + ky[IDX(j, k)] * p[IDX(j, k - 1)]);
          w[IDX(j, k)] = smvp;
          pw += smvp * p[IDX(j, k)];
        }
      double alpha = rro / pw;
      rrn = 0.0;
      rmax = 0.0;
#pragma acc parallel loop collapse(2) reduction(+:rrn) reduction(max:rmax)
      for (int k = 0; k < NYT; k++)
        for (int j = 0; j < NXT; j++) {
          u[IDX(j, k)] += alpha * p[IDX(j, k)];
          r[IDX(j, k)] -= alpha * w[IDX(j, k)];
          rrn += r[IDX(j, k)] * r[IDX(j, k)];
          rmax = fmax(rmax, fabs(r[IDX(j, k)]));
        }
      double beta = rrn / rro;
#pragma acc parallel loop collapse(2)
      for (int k = 0; k < NYT; k++)
        for (int j = 0; j < NXT; j++)
          p[IDX(j, k)] = r[IDX(j, k)] + beta * p[IDX(j, k)];
      rro = rrn;
    }
  }
  printf("%.15e %.15e %.15e\n", rro, rmax, u[IDX(0, 0)]);
  printf("%.15e %.15e\n", u[IDX(NXT / 2, NYT / 3)], u[IDX(NXT - 1, NYT - 1)]);
  free(u); free(u0); free(p); free(r); free(w); free(kx); free(ky);
  return 0;
}
