/* translate-test: translate=--directives=openmp,openacc,translate */
/* SNAP-like transport sweep on a 2-D grid, 4 quadrants, a few angles: psi(i, j) depends on
   its upstream neighbours in i and j.  (1) KBA-style: a host loop over diagonals d, the
   cells of a diagonal in parallel (omp parallel for, j = d - i); (2) the same sweep under an
   OpenACC kernels construct (automatic mapping: it must not parallelise i or j); (3) a
   translate region over a reversed-direction quadrant (i from nx-1 down). */
#include <stdio.h>
#define NX 30
#define NY 22
#define NA 3
static double psi[NA][NY + 1][NX + 1], q[NY][NX], sig[NY][NX], phi[NY][NX];

int main(void)
{
  const double mu[NA] = {0.3, 0.6, 0.9}, eta[NA] = {0.9, 0.7, 0.4}, wt[NA] = {0.2, 0.3, 0.5};
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      q[j][i] = 1.0 + 0.1 * ((i * 3 + j * 7) % 5);
      sig[j][i] = 0.5 + 0.05 * ((i + j) % 4);
      phi[j][i] = 0.0;
    }
  for (int a = 0; a < NA; a++)
    for (int j = 0; j <= NY; j++)
      for (int i = 0; i <= NX; i++) psi[a][j][i] = 0.0;
  /* quadrant 1 (+mu, +eta): KBA diagonals; psi index shifted by one for the inflow edge */
  for (int a = 0; a < NA; a++)
    for (int d = 0; d <= NX + NY - 2; d++) {
      int lo = d - NY + 1 > 0 ? d - NY + 1 : 0, hi = d < NX - 1 ? d : NX - 1;
#pragma omp parallel for
      for (int i = lo; i <= hi; i++) {
        int j = d - i;
        double cx = 2.0 * mu[a], cy = 2.0 * eta[a];
        double v = (q[j][i] + cx * psi[a][j + 1][i] + cy * psi[a][j][i + 1])
                   / (sig[j][i] + cx + cy);
        psi[a][j + 1][i + 1] = v;
        phi[j][i] += wt[a] * v;
      }
    }
  /* quadrant 2 (+mu, +eta again, as written by a naive port): kernels, automatic mapping */
#pragma acc kernels
  for (int a = 0; a < NA; a++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        double cx = 2.0 * mu[a], cy = 2.0 * eta[a];
        psi[a][j + 1][i + 1] = (q[j][i] + cx * psi[a][j + 1][i] + cy * psi[a][j][i + 1])
                               / (sig[j][i] + cx + cy);
        phi[j][i] += wt[a] * psi[a][j + 1][i + 1];
      }
  /* quadrant 3 (-mu, +eta): i runs down; inflow at i = NX */
#pragma translate kernel quad3
  for (int a = 0; a < NA; a++)
    for (int j = 0; j < NY; j++)
      for (int i = NX - 1; i >= 0; i--) {
        double cx = 2.0 * mu[a], cy = 2.0 * eta[a];
        psi[a][j + 1][i] = (q[j][i] + cx * psi[a][j + 1][i + 1] + cy * psi[a][j][i])
                           / (sig[j][i] + cx + cy);
        phi[j][i] += wt[a] * psi[a][j + 1][i];
      }
#pragma translate end kernel
  double s = 0.0;
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) s += phi[j][i] * (1 + i + j);
  printf("%.17g %.17g %.17g %.17g\n", s, phi[0][0], phi[NY - 1][NX - 1], phi[NY / 2][3]);
  return 0;
}
