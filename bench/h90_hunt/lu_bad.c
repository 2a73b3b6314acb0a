/* translate-test: translate=--directives=openmp,translate */
/* NPB LU's lower sweep (blts) as a careless OpenMP port marks it: `parallel for` on j,
   although v[k][j][i] reads v[k][j-1][i] of the same sweep (the wavefront NPB-OMP runs with
   a pipeline of flags).  Refused at the directive with the witness. */
#include <stdio.h>
#define NX 10
#define NY 9
#define NZ 8
static double v[NZ][NY][NX][5], a[5][5];

int main(void)
{
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++)
        for (int m = 0; m < 5; m++) v[k][j][i][m] = 0.1 * ((m * i + j + k) % 7) - 0.3;
  for (int m = 0; m < 5; m++)
    for (int l = 0; l < 5; l++) a[m][l] = 0.02 * ((m + 2 * l) % 5);
  const double omega = 1.2;
  for (int k = 1; k < NZ - 1; k++) {
#pragma omp parallel for
    for (int j = 1; j < NY - 1; j++)
      for (int i = 1; i < NX - 1; i++)
        for (int m = 0; m < 5; m++) {
          double t = 0.0;
          for (int l = 0; l < 5; l++)
            t += a[m][l] * (v[k - 1][j][i][l] + v[k][j - 1][i][l] + v[k][j][i - 1][l]);
          v[k][j][i][m] -= omega * t;
        }
  }
  printf("%.15e\n", v[NZ - 2][NY - 2][NX - 2][4]);
  return 0;
}
