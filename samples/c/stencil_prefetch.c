/* 2-D four-neighbour stencil with each work group's tile of u, plus its halo, in local
 * memory.
 *
 * The sweep is split into 16x16 tiles mapped onto work groups.  A work item reads the four
 * neighbours of its point, each also read by other work items, so the work group first
 * copies the block of u that its tile touches into local memory (add_prefetch) and reads
 * from there.  That block is a cross, the 18x18 square without its corners: it is not
 * convex, so fetch_bounding_box=True asks for the whole square.  18 rows do not fit on 16
 * work items: the translator splits the copy into two passes over the group.
 * The grid size (n = 70) is not a multiple of 16, so edge tiles are guarded.
 */
#include <stdio.h>

#define N 70
#define STEPS 10

static void sweep(int n, const double u[n][n], double v[n][n])
{
#pragma translate kernel stencil
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("u", ["i_inner", "j_inner"], fetch_bounding_box=True)
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      v[i][j] = 0.3 * (u[i - 1][j] + u[i + 1][j]) + 0.2 * (u[i][j - 1] + u[i][j + 1]);
#pragma translate end kernel
}

static double u[N][N], v[N][N];

int main(void)
{
  double sum = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      u[i][j] = (double)((3 * i + 7 * j) % 11) / 11.0;
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
  printf("u[1][1] %.17g u[%d][%d] %.17g\n", u[1][1], N / 2, N / 3, u[N / 2][N / 3]);
  return 0;
}
