/* translate-test: translate=--directives=openmp rtol=1e-13 */
/* NPB MG shapes in C: resid with u1/u2 line temporaries declared in the loop body, the
   restriction rprj3 with i = 2*j - d (d = 1 here: odd grids), interp with stride-2 writes
   j = 2*j1 - 1, and a max-norm and 2-norm of the residual in one loop (two reductions). */
#include <math.h>
#include <stdio.h>
#define NF 17
#define NC 9
static double u[NF][NF][NF], v[NF][NF][NF], r[NF][NF][NF], s[NC][NC][NC];

static void resid(int n, double uu[][NF][NF], double vv[][NF][NF], double rr[][NF][NF],
                  const double a[4])
{
#pragma omp parallel for
  for (int i3 = 1; i3 < n - 1; i3++)
    for (int i2 = 1; i2 < n - 1; i2++) {
      double u1[NF], u2[NF];
      for (int i1 = 0; i1 < n; i1++) {
        u1[i1] = uu[i3][i2 - 1][i1] + uu[i3][i2 + 1][i1] + uu[i3 - 1][i2][i1] + uu[i3 + 1][i2][i1];
        u2[i1] = uu[i3 - 1][i2 - 1][i1] + uu[i3 - 1][i2 + 1][i1] + uu[i3 + 1][i2 - 1][i1]
                 + uu[i3 + 1][i2 + 1][i1];
      }
      for (int i1 = 1; i1 < n - 1; i1++)
        rr[i3][i2][i1] = vv[i3][i2][i1] - a[0] * uu[i3][i2][i1]
                         - a[2] * (u2[i1] + u1[i1 - 1] + u1[i1 + 1])
                         - a[3] * (u2[i1 - 1] + u2[i1 + 1]);
    }
}

static void rprj3(double rr[][NF][NF], double ss[][NC][NC], int mk)
{
#pragma omp parallel for collapse(2)
  for (int j3 = 1; j3 < mk - 1; j3++)
    for (int j2 = 1; j2 < mk - 1; j2++) {
      int i3 = 2 * j3, i2 = 2 * j2;
      for (int j1 = 1; j1 < mk - 1; j1++) {
        int i1 = 2 * j1;
        double x2 = rr[i3][i2 - 1][i1] + rr[i3][i2 + 1][i1] + rr[i3 - 1][i2][i1]
                    + rr[i3 + 1][i2][i1];
        double y2 = rr[i3 - 1][i2 - 1][i1] + rr[i3 + 1][i2 - 1][i1] + rr[i3 - 1][i2 + 1][i1]
                    + rr[i3 + 1][i2 + 1][i1];
        ss[j3][j2][j1] = 0.5 * rr[i3][i2][i1]
                         + 0.25 * (rr[i3][i2][i1 - 1] + rr[i3][i2][i1 + 1] + x2)
                         + 0.125 * y2;
      }
    }
}

static void interp(double ss[][NC][NC], int mm, double uu[][NF][NF])
{
#pragma omp parallel for
  for (int i3 = 0; i3 < mm - 1; i3++)
    for (int i2 = 0; i2 < mm - 1; i2++)
      for (int i1 = 0; i1 < mm - 1; i1++) {
        double z1 = ss[i3][i2 + 1][i1] + ss[i3][i2][i1];
        double z1n = ss[i3][i2 + 1][i1 + 1] + ss[i3][i2][i1 + 1];
        uu[2 * i3][2 * i2][2 * i1] += ss[i3][i2][i1];
        uu[2 * i3][2 * i2][2 * i1 + 1] += 0.5 * (ss[i3][i2][i1 + 1] + ss[i3][i2][i1]);
        uu[2 * i3][2 * i2 + 1][2 * i1] += 0.5 * z1;
        uu[2 * i3][2 * i2 + 1][2 * i1 + 1] += 0.25 * (z1 + z1n);
        uu[2 * i3 + 1][2 * i2][2 * i1] += 0.5 * (ss[i3 + 1][i2][i1] + ss[i3][i2][i1]);
      }
}

int main(void)
{
  const double a[4] = {-8.0 / 3.0, 0.0, 1.0 / 6.0, 1.0 / 12.0};
  for (int i3 = 0; i3 < NF; i3++)
    for (int i2 = 0; i2 < NF; i2++)
      for (int i1 = 0; i1 < NF; i1++) {
        u[i3][i2][i1] = 0.01 * ((i1 + 2 * i2 + 3 * i3) % 5);
        v[i3][i2][i1] = ((i1 * 3 + i2 * 5 + i3 * 7) % 17) / 17.0 - 0.5;
      }
  resid(NF, u, v, r, a);
  rprj3(r, s, NC);
  interp(s, NC, u);
  resid(NF, u, v, r, a);
  double rnm2 = 0.0, rnmu = 0.0;
#pragma omp parallel for reduction(+:rnm2) reduction(max:rnmu)
  for (int i3 = 1; i3 < NF - 1; i3++)
    for (int i2 = 1; i2 < NF - 1; i2++)
      for (int i1 = 1; i1 < NF - 1; i1++) {
        rnm2 += r[i3][i2][i1] * r[i3][i2][i1];
        double t = fabs(r[i3][i2][i1]);
        if (t > rnmu) rnmu = t;
      }
  printf("%.15e %.15e\n", sqrt(rnm2 / ((NF - 2.0) * (NF - 2) * (NF - 2))), rnmu);
  printf("%.15e %.15e %.15e\n", u[2][2][2], u[8][6][4], s[4][4][4]);
  return 0;
}
