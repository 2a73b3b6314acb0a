/* translate-test: translate=--directives=openmp cppflags=-fopenmp */
/* OpenMP target data / target update / enter / exit data reached from several host threads
   (a parallel for left as written for its printf, built with -fopenmp). */
#include <stdio.h>
#define N 4000
#define M 64
static double x[M][N], s[M];

static void work(int n, double *restrict y, double *out, int t) {
#pragma omp target data map(tofrom: y[0:n])
  {
    for (int k = 0; k < 3; k++) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; i++)
        y[i] += t;
    }
#pragma omp target update from(y[0:n])
    *out = y[0] + y[n - 1];
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++)
      y[i] *= 2.0;
  }
#pragma omp target enter data map(to: y[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++)
    y[i] += 1.0;
#pragma omp target exit data map(from: y[0:n])
}

int main(void) {
  for (int j = 0; j < M; j++)
    for (int i = 0; i < N; i++)
      x[j][i] = i + j;
#pragma omp parallel for
  for (int j = 0; j < M; j++) {
    work(N, x[j], &s[j], j);
    if (j < 0) printf("%d\n", j);
  }
  double tx = 0, ts = 0;
  for (int j = 0; j < M; j++) { ts += s[j]; for (int i = 0; i < N; i++) tx += x[j][i]; }
  printf("%.16e %.16e\n", tx, ts);
  return 0;
}
