/* A time-stepped 2-D heat equation: the time loop is inside the region.
 *
 * The two sweeps of each step depend on each other (the second reads what the first wrote
 * at the neighbours of every point), and each step depends on the one before, so no single
 * kernel can run the region in parallel.  The translator makes it a host program: the time
 * loop runs on the host and launches two parallel kernels per step; u and v stay on the device
 * for the whole call (`translate --report` shows the program).
 */
#include <stdio.h>

#define N 96

static double u[N][N], v[N][N];

void heat(int n, int steps, double alpha)
{
#pragma translate kernel heat
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i][j] = u[i][j] + alpha * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]
                                     - 4.0 * u[i][j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        u[i][j] = v[i][j];
  }
#pragma translate end kernel
}

int main(void)
{
  double sum = 0.0, corner = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      u[i][j] = (i == N / 2 && j == N / 3) ? 1000.0 : ((i * 7 + j * 3) % 11) * 0.5;
      v[i][j] = 0.0;
    }
  heat(N, 25, 0.2);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += u[i][j] * (1 + (i + 2 * j) % 5);
  corner = u[1][1] + u[N - 2][N - 2];
  printf("weighted sum %.17g\ncorners %.17g\ncentre %.17g\n", sum, corner, u[N / 2][N / 3]);
  return 0;
}
