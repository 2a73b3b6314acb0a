/* translate-test: rtol=1e-6 translate=--directives=openmp */
/* Rodinia srad (OpenMP): the index k declared at the top of the function, listed private and
   assigned k = i*cols + j at the top of the loop body; neighbours read through the index
   tables iN, iS (rows) and jW, jE (columns), so the arrays are declared with their extents
   (a read through a table tells no footprint). */
#include <stdio.h>
#include <stdlib.h>

static void srad(int rows, int cols, float J[rows * cols], float c[rows * cols],
                 float dN[rows * cols], float dE[rows * cols], const int iN[rows],
                 const int iS[rows], const int jW[cols], const int jE[cols], float lambda)
{
  int i, j, k;
#pragma omp parallel for private(j, k)
  for (i = 0; i < rows; i++) {
    for (j = 0; j < cols; j++) {
      k = i * cols + j;
      float Jc = J[k];
      dN[k] = J[iN[i] * cols + j] - Jc;
      dE[k] = J[i * cols + jE[j]] - Jc;
      float w = J[i * cols + jW[j]] - Jc, s = J[iS[i] * cols + j] - Jc;
      float g = (dN[k] * dN[k] + dE[k] * dE[k] + w * w + s * s) / (Jc * Jc);
      c[k] = 1.0f / (1.0f + g);
    }
  }
#pragma omp parallel for private(j, k)
  for (i = 0; i < rows; i++) {
    for (j = 0; j < cols; j++) {
      k = i * cols + j;
      float D = c[k] * dN[k] + c[iS[i] * cols + j] * dE[k];
      J[k] = J[k] + 0.25f * lambda * D;
    }
  }
}

int main(void)
{
  int rows = 29, cols = 23;
  float *J = malloc(sizeof(float) * rows * cols), *c = malloc(sizeof(float) * rows * cols);
  float *dN = malloc(sizeof(float) * rows * cols), *dE = malloc(sizeof(float) * rows * cols);
  int *iN = malloc(sizeof(int) * rows), *iS = malloc(sizeof(int) * rows);
  int *jW = malloc(sizeof(int) * cols), *jE = malloc(sizeof(int) * cols);
  for (int i = 0; i < rows; i++) { iN[i] = i - 1; iS[i] = i + 1; }
  for (int j = 0; j < cols; j++) { jW[j] = j - 1; jE[j] = j + 1; }
  iN[0] = 0; iS[rows - 1] = rows - 1; jW[0] = 0; jE[cols - 1] = cols - 1;
  for (int k = 0; k < rows * cols; k++) J[k] = 1.0f + (float)((k * 37) % 101) / 255.0f;
  for (int it = 0; it < 3; it++) srad(rows, cols, J, c, dN, dE, iN, iS, jW, jE, 0.5f);
  double s = 0;
  for (int k = 0; k < rows * cols; k++) s += J[k] * (1 + k % 3);
  printf("%.9g %.9g %.9g %.12g\n", J[0], J[rows * cols / 2 + 5], J[rows * cols - 1], s);
  return 0;
}
