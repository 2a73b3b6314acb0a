/* translate-test: rtol=1e-12 translate=--directives=openmp */
/* Rodinia-lud-like (the OpenMP base version): a flat float matrix, the k loop carried,
   the row/column updates parallel over i with an inner sum; loop variables declared outside. */
#include <stdio.h>
#define SIZE 64
static float a[SIZE * SIZE];

static void lud_omp(float *a, int size)
{
  int i, j, k;
  float sum;
  for (i = 0; i < size; i++) {
#pragma omp parallel for private(j, k, sum) shared(size, i, a)
    for (j = i; j < size; j++) {
      sum = a[i * size + j];
      for (k = 0; k < i; k++) sum -= a[i * size + k] * a[k * size + j];
      a[i * size + j] = sum;
    }
#pragma omp parallel for private(j, k, sum) shared(size, i, a)
    for (j = i + 1; j < size; j++) {
      sum = a[j * size + i];
      for (k = 0; k < i; k++) sum -= a[j * size + k] * a[k * size + i];
      a[j * size + i] = sum / a[i * size + i];
    }
  }
}

int main(void)
{
  for (int i = 0; i < SIZE; i++)
    for (int j = 0; j < SIZE; j++)
      a[i * SIZE + j] = (i == j) ? 40.0f + i : (float)((i * 3 + j * 5) % 11) / 10.0f;
  lud_omp(a, SIZE);
  double s = 0;
  for (int i = 0; i < SIZE * SIZE; i++) s += a[i] * (i % 7 - 3);
  printf("%.9g %.9g %.9g %.12g\n", a[0], a[SIZE * SIZE / 2 + 7], a[SIZE * SIZE - 1], s);
  return 0;
}
