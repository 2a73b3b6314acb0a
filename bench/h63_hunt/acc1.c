/* translate-test: translate=--directives=openacc */
/* OpenACC in C: parallel loop with copyin/copy, kernels, data region with present, a sum
   reduction, collapse(2), loop gang vector, private, a max reduction. */
#include <stdio.h>
#include <math.h>
#define N 256
#define M 33

static void jacobi(int n, int m, const float *restrict a, float *restrict b)
{
#pragma acc parallel loop collapse(2) present(a[0:n*m], b[0:n*m])
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++)
      b[i * m + j] = 0.25f * (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]);
}

int main(void)
{
  static float a[N * M], b[N * M];
  static double x[N], y[N];
  for (int i = 0; i < N * M; i++) { a[i] = (float)((i * 37) % 101) / 7.0f; b[i] = 0; }
  for (int i = 0; i < N; i++) { x[i] = cos(i * 0.3); y[i] = i; }
#pragma acc data copy(a[0:N*M], b[0:N*M])
  {
    for (int t = 0; t < 10; t++) {
      jacobi(N, M, a, b);
      jacobi(N, M, b, a);
    }
  }
  double s = 0, mx = -1;
#pragma acc parallel loop reduction(+:s) copyin(x[0:N], y[0:N])
  for (int i = 0; i < N; i++)
    s += x[i] * y[i];
#pragma acc parallel loop gang vector reduction(max:mx) copyin(x[0:N])
  for (int i = 0; i < N; i++) {
    double t;
    t = fabs(x[i]) * 3;
    mx = fmax(mx, t);
  }
#pragma acc kernels copy(y[0:N])
  {
    for (int i = 1; i < N; i++)
      y[i] = y[i - 1] * 0.5 + x[i];
    for (int i = 0; i < N; i++)
      y[i] = y[i] * 2;
  }
  double u = 0;
  for (int i = 0; i < N * M; i++) u += a[i] * (i % 11) + b[i];
  for (int i = 0; i < N; i++) u += y[i];
  printf("%.9g %.9g %.17g\n", s, mx, u);
  return 0;
}
