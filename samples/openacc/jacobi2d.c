/* translate-test: translate=--directives=openacc
 *
 * 2-D Jacobi relaxation: the sweep is offloaded, the time loop stays on the host.  The
 * OpenACC version of samples/c/jacobi2d.c (translate --directives openacc): "parallel loop
 * tile(16, 16)" declares both loops independent and asks for the pragma version's 16x16
 * tiles (the first size is the innermost loop's, as in OpenACC).
 *
 * The arrays are C99 variable-length array parameters: their extents (n x n) become value
 * arguments of the kernel.  Both loops are split into 16x16 tiles mapped onto work groups.
 * Only the interior of v is written, so the glue copies v in as well as out.
 */
#include <stdio.h>

#define N 66
#define STEPS 20

static void sweep(int n, const double u[n][n], double v[n][n])
{
#pragma acc parallel loop tile(16, 16) copyin(u[0:n][0:n]) copy(v[0:n][0:n])
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      v[i][j] = 0.25 * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]);
}

static double u[N][N], v[N][N];

int main(void)
{
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      u[i][j] = (i == 0 || j == N - 1) ? 1.0 : 0.0;
      v[i][j] = u[i][j];
    }
  for (int t = 0; t < STEPS; t++) {
    sweep(N, u, v);
    sweep(N, v, u);
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      sum += u[i][j];
  printf("checksum %.17g\n", sum);
  printf("u[1][1] %.17g u[%d][%d] %.17g\n", u[1][1], N / 2, N / 2, u[N / 2][N / 2]);
  return 0;
}
