/* translate-test: translate=--directives=openmp,translate rtol=1e-12 */
/* NPB FT's shape in C as NPB's C port keeps complex numbers: a struct {double real, imag}
   array; the exponent table (exp of folded wave numbers), evolve in a time loop, and the
   checksum over 1024 scattered points (% indices) as two reduction(+:) sums. */
#include <math.h>
#include <stdio.h>
#define NX 16
#define NY 8
#define NZ 8
typedef struct { double real, imag; } dcomplex;
static dcomplex u0[NZ][NY][NX], u1[NZ][NY][NX];
static double twiddle[NZ][NY][NX];

int main(void)
{
  const double alpha = 1.0e-6, pi = 3.141592653589793;
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        u0[k][j][i].real = 0.01 * ((i + 3 * j + 7 * k + 11) % 13);
        u0[k][j][i].imag = 0.02 * ((2 * i + j + 5 * k + 8) % 11);
      }
  const double ap = -4.0 * alpha * pi * pi;
#pragma omp parallel for
  for (int k = 0; k < NZ; k++)
    for (int j = 0; j < NY; j++)
      for (int i = 0; i < NX; i++) {
        int ii = (i + NX / 2) % NX - NX / 2, jj = (j + NY / 2) % NY - NY / 2;
        int kk = (k + NZ / 2) % NZ - NZ / 2;
        twiddle[k][j][i] = exp(ap * (double)(ii * ii + jj * jj + kk * kk));
      }
  for (int it = 1; it <= 3; it++) {
#pragma omp parallel for
    for (int k = 0; k < NZ; k++)
      for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
          u0[k][j][i].real *= twiddle[k][j][i];
          u0[k][j][i].imag *= twiddle[k][j][i];
          u1[k][j][i] = u0[k][j][i];
        }
    double cr = 0.0, ci = 0.0;
#pragma omp parallel for reduction(+:cr, ci)
    for (int j = 1; j <= 1024; j++) {
      int q = j % NX, r = (3 * j) % NY, s = (5 * j) % NZ;
      cr += u1[s][r][q].real;
      ci += u1[s][r][q].imag;
    }
    printf("%d %.15e %.15e\n", it, cr, ci);
  }
  return 0;
}
