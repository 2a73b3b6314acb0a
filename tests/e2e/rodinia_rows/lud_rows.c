/* translate-test: rtol=1e-12 translate=--directives=openmp */
/* Rodinia lud (OpenMP): a flat matrix behind a pointer, rows of the parameter size; the row
   being factored is the host loop's i (a[i*size + j], a[i*size + k] with k < i), the inner
   products read a[k*size + j] and a[j*size + k]. */
#include <stdio.h>
#include <stdlib.h>

static void lud(float *a, int size)
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
  int n = 37;
  float *a = malloc(sizeof(float) * n * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      a[i * n + j] = (i == j) ? 30.0f + i : (float)((i * 3 + j * 5) % 11) / 10.0f;
  lud(a, n);
  double s = 0;
  for (int i = 0; i < n * n; i++) s += a[i] * (i % 7 - 3);
  printf("%.9g %.9g %.9g %.12g\n", a[0], a[n * n / 2 + 3], a[n * n - 1], s);
  free(a);
  return 0;
}
