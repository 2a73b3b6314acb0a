/* Tiled matrix multiply, C = A*B, with both operands staged in local memory.
 *
 * i and j are split into 16x16 work groups and k into steps of 16.  At each step the work
 * group copies a 16x16 tile of A and one of B into local memory (add_prefetch), waits at a
 * barrier, and every work item then takes its row of the A tile and its column of the B
 * tile from local memory.  The translator derives the tiles from the accesses, spreads the
 * copies over the work group and inserts the two barriers each step needs.  None of the
 * sizes is a multiple of 16, so the copies and the products are guarded at the edges.
 */
#include <stdio.h>

#define NI 45
#define NJ 38
#define NK 51

static double A[NI][NK], B[NK][NJ], C[NI][NJ];

void matmul_tiled(void)
{
#pragma translate kernel
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("k", 16)
#pragma translate add_prefetch("A", ["i_inner", "k_inner"])
#pragma translate add_prefetch("B", ["k_inner", "j_inner"])
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++) {
      double acc = 0.0;
      for (int k = 0; k < NK; k++)
        acc += A[i][k] * B[k][j];
      C[i][j] = acc;
    }
  }
#pragma translate end kernel
}

int main(void)
{
  double sum = 0.0;
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = (double)((i * k + 3) % 13) / 13.0 - 0.5;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = (double)((2 * k + 5 * j) % 7) - 3.0;
  matmul_tiled();
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      sum += C[i][j];
  printf("checksum %.17g\n", sum);
  printf("C[0][0] %.17g C[17][20] %.17g C[%d][%d] %.17g\n", C[0][0], C[17][20], NI - 1, NJ - 1,
         C[NI - 1][NJ - 1]);
  return 0;
}
