/* translate-test: translate=--directives=openmp rtol=1e-13 */
/* OpenMP offload shapes: target teams distribute parallel for simd collapse(2) with
   firstprivate / is_device_ptr-free maps, omp loop, taskloop, if clauses, nowait, depend,
   target parallel for with if(target: ...), defaultmap. */
#include <stdio.h>
#define N 40
#define M 30

static double a[N][M], b[N][M], c[N], d[N], e[N];

static void kernels(int n, int m, double scale, int big) {
#pragma omp target teams distribute parallel for simd collapse(2) firstprivate(scale) map(to: a) map(from: b)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      b[i][j] = a[i][j] * scale;

#pragma omp target teams loop if(big) map(tofrom: c[0:n])
  for (int i = 0; i < n; i++)
    c[i] = c[i] + b[i][0];

#pragma omp parallel for if(n > 10) schedule(static, 4)
  for (int i = 0; i < n; i++)
    d[i] = c[i] * 2.0;

#pragma omp target parallel for if(target: big) map(to: d[0:n]) map(from: e[0:n]) nowait
  for (int i = 0; i < n; i++)
    e[i] = d[i] - 1.0;
#pragma omp taskwait

#pragma omp target teams distribute parallel for defaultmap(tofrom: scalar) depend(in: d) nowait
  for (int i = 1; i < n; i++)
    c[i] = c[i] + d[i - 1];
#pragma omp taskwait
}

static double tl(int n) {
  double s = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop reduction(+:s) grainsize(4)
  for (int i = 0; i < n; i++)
    s += e[i];
  return s;
}

static double loopred(int n) {
  double s = 0;
#pragma omp parallel for simd reduction(+:s) if(simd: n > 4)
  for (int i = 0; i < n; i++)
    s += c[i] * c[i];
  return s;
}

int main(void) {
  for (int i = 0; i < N; i++) {
    c[i] = i;
    for (int j = 0; j < M; j++) a[i][j] = (i * 3 + j) % 7 - 2;
  }
  kernels(N, M, 0.5, 1);
  double s1 = tl(N), s2 = loopred(N);
  double tb = 0;
  for (int i = 0; i < N; i++) for (int j = 0; j < M; j++) tb += b[i][j];
  printf("%.17g %.17g %.17g %.17g\n", tb, s1, s2, c[N - 1]);
  return 0;
}
