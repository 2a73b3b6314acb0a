/* translate-test: translate=--directives=openmp */
/* Gathers through permutation and neighbour tables (pointers from malloc): b[i] = a[perm[i]],
   srad's north/south rows J[iN[i]*cols + j] with clamped iN/iS, a gather with an offset
   a[perm[i] - 1] under a guard, and a 64-bit table. */
#include <stdio.h>
#include <stdlib.h>

static void permute(int n, const int *restrict perm, const double *restrict a,
                    double *restrict b)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    b[i] = 2.0 * a[perm[i]];
}

static void rows(int rows, int cols, const int *restrict iN, const int *restrict iS,
                 const float *restrict J, float *restrict dN)
{
#pragma omp parallel for
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      dN[i * cols + j] = J[iN[i] * cols + j] - 2.0f * J[iS[i] * cols + j];
}

static void shifted(int n, const int *restrict perm, const double *restrict a,
                    double *restrict b)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int p = perm[i];
    b[i] = p >= 1 ? a[p - 1] : 0.0;
  }
}

static void wide(long n, const long *restrict idx, const double *restrict a,
                 double *restrict b)
{
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    b[i] += a[idx[i]];
}

int main(void)
{
  const int n = 5000, R = 64, C = 48;
  int *perm = malloc(sizeof(int) * n);
  long *idx = malloc(sizeof(long) * n);
  double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
  double *c = malloc(sizeof(double) * n);
  int *iN = malloc(sizeof(int) * R), *iS = malloc(sizeof(int) * R);
  float *J = malloc(sizeof(float) * R * C), *dN = malloc(sizeof(float) * R * C);
  for (int i = 0; i < n; i++) {
    perm[i] = (int)((i * 2654435761u) % (unsigned)n);
    idx[i] = (i * 37L) % n;
    a[i] = 0.5 * i;
  }
  for (int i = 0; i < R; i++) {
    iN[i] = i > 0 ? i - 1 : 0;
    iS[i] = i < R - 1 ? i + 1 : R - 1;
  }
  for (int k = 0; k < R * C; k++) J[k] = (float)(k % 97) * 0.25f;
  permute(n, perm, a, b);
  shifted(n, perm, b, c);
  wide(n, idx, a, c);
  rows(R, C, iN, iS, J, dN);
  double s = 0.0, t = 0.0;
  for (int i = 0; i < n; i++) s += c[i] * (1 + i % 3);
  for (int k = 0; k < R * C; k++) t += dN[k] * (1 + k % 5);
  printf("%.17g %.9g %.17g %.17g\n", s, t, c[7], b[n - 1]);
  free(perm); free(idx); free(a); free(b); free(c); free(iN); free(iS); free(J); free(dN);
  return 0;
}
