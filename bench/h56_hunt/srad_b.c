/* translate-test: rtol=1e-6 translate=--directives=openmp */
/* Rodinia-srad-like: float image, neighbour index tables iN/iS/jW/jE (indirect indices),
   expf/logf, a `parallel` region with two `for` loops and a reduction pair sum/sum2. */
#include <stdio.h>
#include <math.h>
#define R 64
#define C 48
static float J[R * C], c[R * C], dN[R * C], dS[R * C], dW[R * C], dE[R * C];
static int iN[R], iS[R], jW[C], jE[C];

static void srad_step(int rows, int cols, float lambda)
{
  float sum = 0.0f, sum2 = 0.0f;
  int i, j;
  for (i = 0; i < rows; i++)
    for (j = 0; j < cols; j++) {
      float tmp = J[i * cols + j];
      sum += tmp;
      sum2 += tmp * tmp;
    }
  float meanROI = sum / (rows * cols);
  float varROI = (sum2 / (rows * cols)) - meanROI * meanROI;
  float q0sqr = varROI / (meanROI * meanROI);
#pragma omp parallel
  {
#pragma omp for private(j)
    for (int i = 0; i < rows; i++) {
      for (j = 0; j < cols; j++) {
        int k = i * cols + j;
        float Jc = J[k];
        dN[k] = J[iN[i] * cols + j] - Jc;
        dS[k] = J[iS[i] * cols + j] - Jc;
        dW[k] = J[i * cols + jW[j]] - Jc;
        dE[k] = J[i * cols + jE[j]] - Jc;
        float G2 = (dN[k] * dN[k] + dS[k] * dS[k] + dW[k] * dW[k] + dE[k] * dE[k]) / (Jc * Jc);
        float L = (dN[k] + dS[k] + dW[k] + dE[k]) / Jc;
        float num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
        float den = 1 + (.25f * L);
        float qsqr = num / (den * den);
        den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
        c[k] = 1.0f / (1.0f + den);
        if (c[k] < 0) c[k] = 0;
        else if (c[k] > 1) c[k] = 1;
      }
    }
#pragma omp for private(j)
    for (int i = 0; i < rows; i++) {
      for (j = 0; j < cols; j++) {
        int k = i * cols + j;
        float cN = c[k], cS = c[iS[i] * cols + j], cW = c[k], cE = c[i * cols + jE[j]];
        float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];
        J[k] = J[k] + 0.25f * lambda * D;
      }
    }
  }
}

int main(void)
{
  for (int i = 0; i < R; i++) { iN[i] = i - 1; iS[i] = i + 1; }
  for (int j = 0; j < C; j++) { jW[j] = j - 1; jE[j] = j + 1; }
  iN[0] = 0; iS[R - 1] = R - 1; jW[0] = 0; jE[C - 1] = C - 1;
  for (int k = 0; k < R * C; k++) J[k] = expf((float)((k * 37) % 101) / 255.0f);
  for (int it = 0; it < 4; it++) srad_step(R, C, 0.5f);
  double s = 0;
  for (int k = 0; k < R * C; k++) s += J[k] * (1 + k % 3);
  printf("%.9g %.9g %.9g %.12g\n", J[0], J[R * C / 2 + 5], J[R * C - 1], s);
  return 0;
}
