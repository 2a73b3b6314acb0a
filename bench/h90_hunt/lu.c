/* translate-test: translate=--directives=openmp,translate rtol=1e-12 */
/* NPB LU's SSOR shape in C (v[k][j][i][5]): rsd scaled by dt (parallel), the lower and
   upper sweeps (wavefronts) in translate regions, kept sequential, the update and l2norm's
   five sums (five scalar reduction(+:) variables, as C OpenMP 3 ports write them). */
#include <math.h>
#include <stdio.h>
#define NX 10
#define NY 9
#define NZ 8
static double u[NZ][NY][NX][5], rsd[NZ][NY][NX][5], a[5][5];

int main(void)
{
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++)
        for (int m = 0; m < 5; m++) {
          u[k][j][i][m] = 1.0 + 0.01 * ((m + 2 * i + 3 * j + 5 * k + 11) % 13);
          rsd[k][j][i][m] = 0.1 * (((m + 1) * (i + 1) + j + k + 2) % 7) - 0.3;
        }
  for (int m = 0; m < 5; m++)
    for (int l = 0; l < 5; l++) a[m][l] = 0.02 * ((m + 2 * l + 3) % 5);
  const double omega = 1.2, dt = 0.5, tmp = 1.0 / (omega * (2.0 - omega));
  for (int istep = 1; istep <= 2; istep++) {
#pragma omp parallel for
    for (int k = 1; k < NZ - 1; k++)
      for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX - 1; i++)
          for (int m = 0; m < 5; m++) rsd[k][j][i][m] *= dt;
#pragma translate kernel blts
    for (int k = 1; k < NZ - 1; k++)
      for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX - 1; i++) {
          double t[5];
          for (int m = 0; m < 5; m++) {
            t[m] = 0.0;
            for (int l = 0; l < 5; l++)
              t[m] += a[m][l] * (rsd[k - 1][j][i][l] + rsd[k][j - 1][i][l] + rsd[k][j][i - 1][l]);
          }
          for (int m = 0; m < 5; m++) rsd[k][j][i][m] -= omega * t[m];
        }
#pragma translate end kernel
#pragma translate kernel buts
    for (int k = NZ - 2; k >= 1; k--)
      for (int j = NY - 2; j >= 1; j--)
        for (int i = NX - 2; i >= 1; i--) {
          double t[5];
          for (int m = 0; m < 5; m++) {
            t[m] = 0.0;
            for (int l = 0; l < 5; l++)
              t[m] += a[l][m] * (rsd[k + 1][j][i][l] + rsd[k][j + 1][i][l] + rsd[k][j][i + 1][l]);
          }
          for (int m = 0; m < 5; m++) rsd[k][j][i][m] -= omega * t[m];
        }
#pragma translate end kernel
#pragma omp parallel for
    for (int k = 1; k < NZ - 1; k++)
      for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX - 1; i++)
          for (int m = 0; m < 5; m++) u[k][j][i][m] += tmp * rsd[k][j][i][m];
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;
#pragma omp parallel for reduction(+:s0, s1, s2, s3, s4)
    for (int k = 1; k < NZ - 1; k++)
      for (int j = 1; j < NY - 1; j++)
        for (int i = 1; i < NX - 1; i++) {
          s0 += rsd[k][j][i][0] * rsd[k][j][i][0];
          s1 += rsd[k][j][i][1] * rsd[k][j][i][1];
          s2 += rsd[k][j][i][2] * rsd[k][j][i][2];
          s3 += rsd[k][j][i][3] * rsd[k][j][i][3];
          s4 += rsd[k][j][i][4] * rsd[k][j][i][4];
        }
    const double pts = (NX - 2) * (NY - 2) * (NZ - 2);
    printf("%d %.15e %.15e %.15e %.15e %.15e\n", istep, sqrt(s0 / pts), sqrt(s1 / pts),
           sqrt(s2 / pts), sqrt(s3 / pts), sqrt(s4 / pts));
  }
  double su = 0.0;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++)
        for (int m = 0; m < 5; m++) su += u[k][j][i][m];
  printf("%.15e %.15e\n", su, u[NZ / 2][NY / 2][NX / 2][2]);
  return 0;
}
