/* bench/heat: a 2-D heat equation on 4096 x 4096 doubles, a 100-step time loop inside one
 * region.  The same source builds three ways:
 *   translated (translate + NVIDIA OpenCL): the region is a host program, u and v stay on the
 *     device for the 100 steps;
 *   OpenMP (gcc -O3 -fopenmp -DUSE_OMP): the two sweeps of each step are `omp parallel for`;
 *   serial (gcc -O3).
 * Prints the wall time of one region call (after a 1-step warm-up call that builds the
 * OpenCL programs) and a checksum, so the builds can be compared number for number. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef USE_OMP
#define OMP_FOR _Pragma("omp parallel for")
#else
#define OMP_FOR
#endif

#define N 4096

static double u[N][N], v[N][N];

void heat(int n, int steps, double alpha)
{
#pragma translate kernel heat
  for (int t = 0; t < steps; t++) {
    OMP_FOR
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i][j] = u[i][j] + alpha * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]
                                     - 4.0 * u[i][j]);
    OMP_FOR
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i][j] = v[i][j];
  }
#pragma translate end kernel
}

static double seconds(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
  int steps = argc > 1 ? atoi(argv[1]) : 100;
  const char *label = argc > 2 ? argv[2] : "run";
  double sum = 0.0, t0, t1;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      u[i][j] = ((i * 7 + j * 3) % 11) * 0.5;
      v[i][j] = 0.0;
    }
  u[N / 2][N / 3] = 1000.0;
  heat(N, 1, 0.2);            /* warm-up: device setup and program builds, first touch */
  t0 = seconds();
  heat(N, steps, 0.2);
  t1 = seconds();
  for (int i = 0; i < N; i += 7)
    for (int j = 0; j < N; j += 5)
      sum += u[i][j] * (1 + (i + 2 * j) % 5);
  printf("%s: %d steps of %dx%d: %.3f ms (%.3f ms per step)  checksum %.17g  centre %.17g\n",
         label, steps, N, N, (t1 - t0) * 1e3, (t1 - t0) * 1e3 / steps, sum, u[N / 2][N / 3]);
  return 0;
}
