/* translate-test: translate=--directives=openmp,translate rtol=1e-12 */
/* NPB EP's shape in C: batches of pseudo-random pairs (randlc's exact double LCG, each batch
   seeded by skipping ahead), Gaussian pairs, the 10-bin histogram q[l] and sx, sy.  OpenMP
   as NPB-OMP's C port writes it: the batch loop parallel, a private work array, the
   histogram with `omp atomic`, sx and sy in a reduction clause. */
#include <math.h>
#include <stdio.h>
#define NK 256
#define NB 16
#define NQ 10

static double randlc(double *x, double a)
{
  const double r23 = 1.0 / 8388608.0, r46 = r23 * r23, t23 = 8388608.0, t46 = t23 * t23;
  double t1 = r23 * a;
  double a1 = (double)(int)t1;
  double a2 = a - t23 * a1;
  t1 = r23 * *x;
  double x1 = (double)(int)t1;
  double x2 = *x - t23 * x1;
  t1 = a1 * x2 + a2 * x1;
  double t2 = (double)(int)(r23 * t1);
  double z = t1 - t23 * t2;
  double t3 = t23 * z + a2 * x2;
  double t4 = (double)(int)(r46 * t3);
  *x = t3 - t46 * t4;
  return r46 * *x;
}

static double q[NQ];

int main(void)
{
  const double a = 1220703125.0, s = 271828183.0;
  double an = a, sx = 0.0, sy = 0.0;
  for (int i = 0; i < 9; i++) randlc(&an, an);
#pragma omp parallel for reduction(+:sx, sy)
  for (int k = 0; k < NB; k++) {
    double x[2 * NK];
    double seed = s, aa = an;
    int kk = k;
    for (int i = 0; i < 30; i++) {
      int ik = kk / 2;
      if (2 * ik != kk) randlc(&seed, aa);
      if (ik != 0) randlc(&aa, aa);
      kk = ik;
    }
    for (int i = 0; i < 2 * NK; i++) x[i] = randlc(&seed, a);
    for (int i = 0; i < NK; i++) {
      double x1 = 2.0 * x[2 * i] - 1.0, x2 = 2.0 * x[2 * i + 1] - 1.0;
      double t1 = x1 * x1 + x2 * x2;
      if (t1 <= 1.0) {
        double t2 = sqrt(-2.0 * log(t1) / t1);
        double t3 = x1 * t2, t4 = x2 * t2;
        int l = (int)fmax(fabs(t3), fabs(t4));
#pragma omp atomic
        q[l] += 1.0;
        sx += t3;
        sy += t4;
      }
    }
  }
  printf("%.15e %.15e\n", sx, sy);
  for (int l = 0; l < NQ; l++) printf("%.0f ", q[l]);
  printf("\n");
  return 0;
}
