/* translate-test: translate=--directives=openmp,translate rtol=1e-12 */
/* NPB BT/SP compute_rhs in C as NPB's C port lays it out: u[k][j][i][5], the auxiliaries
   (rho_i, us, square), rhs = forcing, the xi-direction flux differences of components 1, 2
   and 5, the 4th-order dissipation on the interior (m loop inside) and its first two rows,
   then the dt scaling; `omp parallel for` on k as NPB-OMP. */
#include <stdio.h>
#define NX 12
#define NY 10
#define NZ 8
static double u[NZ][NY][NX][5], rhs[NZ][NY][NX][5], forcing[NZ][NY][NX][5];
static double rho_i[NZ][NY][NX], us[NZ][NY][NX], square[NZ][NY][NX];

int main(void)
{
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++)
        for (int m = 0; m < 5; m++) {
          u[k][j][i][m] = 1.0 + 0.01 * ((m * 7 + i * 3 + j * 5 + k * 11 + 23) % 17);
          forcing[k][j][i][m] = 0.001 * ((m + i + 2 * j + 3 * k + 6) % 7);
        }
  const double dx1tx1 = 0.11, dx2tx1 = 0.12, dx5tx1 = 0.15, tx2 = 0.05, xxcon2 = 0.21;
  const double c1 = 1.4, c2 = 0.4, con43 = 4.0 / 3.0, dssp = 0.025, dt = 0.0015;
#pragma omp parallel for
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        double rho_inv = 1.0 / u[k][j][i][0];
        rho_i[k][j][i] = rho_inv;
        us[k][j][i] = u[k][j][i][1] * rho_inv;
        square[k][j][i] = 0.5 * (u[k][j][i][1] * u[k][j][i][1] + u[k][j][i][2] * u[k][j][i][2]
                                 + u[k][j][i][3] * u[k][j][i][3]) * rho_inv;
        for (int m = 0; m < 5; m++) rhs[k][j][i][m] = forcing[k][j][i][m];
      }
#pragma omp parallel for
  for (int k = 1; k < NZ - 1; k++)
    for (int j = 1; j < NY - 1; j++) {
      for (int i = 1; i < NX - 1; i++) {
        double uijk = us[k][j][i], up1 = us[k][j][i + 1], um1 = us[k][j][i - 1];
        rhs[k][j][i][0] += dx1tx1 * (u[k][j][i + 1][0] - 2.0 * u[k][j][i][0] + u[k][j][i - 1][0])
            - tx2 * (u[k][j][i + 1][1] - u[k][j][i - 1][1]);
        rhs[k][j][i][1] += dx2tx1 * (u[k][j][i + 1][1] - 2.0 * u[k][j][i][1] + u[k][j][i - 1][1])
            + xxcon2 * con43 * (up1 - 2.0 * uijk + um1)
            - tx2 * (u[k][j][i + 1][1] * up1 - u[k][j][i - 1][1] * um1
                     + (u[k][j][i + 1][4] - square[k][j][i + 1] - u[k][j][i - 1][4]
                        + square[k][j][i - 1]) * c2);
        rhs[k][j][i][4] += dx5tx1 * (u[k][j][i + 1][4] - 2.0 * u[k][j][i][4] + u[k][j][i - 1][4])
            - tx2 * ((c1 * u[k][j][i + 1][4] - c2 * square[k][j][i + 1]) * up1
                     - (c1 * u[k][j][i - 1][4] - c2 * square[k][j][i - 1]) * um1);
      }
      for (int m = 0; m < 5; m++) {
        rhs[k][j][1][m] -= dssp * (5.0 * u[k][j][1][m] - 4.0 * u[k][j][2][m] + u[k][j][3][m]);
        rhs[k][j][2][m] -= dssp * (-4.0 * u[k][j][1][m] + 6.0 * u[k][j][2][m]
                                   - 4.0 * u[k][j][3][m] + u[k][j][4][m]);
      }
      for (int i = 3; i < NX - 3; i++)
        for (int m = 0; m < 5; m++)
          rhs[k][j][i][m] -= dssp * (u[k][j][i - 2][m] - 4.0 * u[k][j][i - 1][m]
                                     + 6.0 * u[k][j][i][m] - 4.0 * u[k][j][i + 1][m]
                                     + u[k][j][i + 2][m]);
    }
#pragma omp parallel for
  for (int k = 1; k < NZ - 1; k++)
    for (int j = 1; j < NY - 1; j++)
      for (int i = 1; i < NX - 1; i++)
        for (int m = 0; m < 5; m++) rhs[k][j][i][m] *= dt;
  double s[5] = {0, 0, 0, 0, 0}, r = 0.0;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        for (int m = 0; m < 5; m++) s[m] += rhs[k][j][i][m];
        r += rho_i[k][j][i];
      }
  printf("%.15e %.15e %.15e %.15e %.15e %.15e\n", s[0], s[1], s[2], s[3], s[4], r);
  return 0;
}
