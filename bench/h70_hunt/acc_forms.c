/* translate-test: translate=--directives=openacc rtol=1e-13 */
/* OpenACC C shapes: parallel loop gang vector_length(128), loop tile(8,8), atomic update
   of a scalar, declare create, kernels loop independent, routine seq, collapse(2) with a
   max reduction, loop worker, num_workers, async/wait, if clauses. */
#include <stdio.h>
#include <math.h>
#define N 64
#define M 48

static double g[N];
#pragma acc declare create(g)

#pragma acc routine seq
static double f(double x) { return x * x - 1.0; }

int main(void) {
  static double a[N][M], b[N][M];
  double s = 0, mx = -1e30;
  int cnt = 0, big = 1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) a[i][j] = ((i * 5 + j * 3) % 11) - 5.0;
#pragma acc parallel loop gang vector_length(128) copyin(a) copyout(b)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      b[i][j] = f(a[i][j]);
#pragma acc parallel loop tile(8, 8) if(big) async(2)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++)
      b[i][j] += a[i][j];
#pragma acc wait(2)
#pragma acc parallel loop
  for (int i = 0; i < N; i++) {
#pragma acc atomic update
    s += b[i][0];
  }
#pragma acc parallel loop collapse(2) reduction(max:mx) reduction(+:cnt)
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      mx = fmax(mx, b[i][j]);
      if (b[i][j] > 0) cnt++;
    }
#pragma acc kernels loop independent
  for (int i = 0; i < N; i++)
    g[i] = b[i][1] * 0.5;
#pragma acc update self(g[0:N])
#pragma acc parallel num_workers(4)
  {
#pragma acc loop worker
    for (int i = 0; i < N; i++)
      g[i] = g[i] + 1.0;
  }
  double tg = 0, tb = 0;
  for (int i = 0; i < N; i++) { tg += g[i]; for (int j = 0; j < M; j++) tb += b[i][j]; }
  printf("%.17g %.17g %.17g %d %.17g\n", tb, s, mx, cnt, tg);
  return 0;
}
