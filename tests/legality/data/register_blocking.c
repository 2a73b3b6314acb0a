#include <stdio.h>
#define NI 45
#define NJ 38
#define NK 51
static double A[NI][NK], B[NK][NJ], C[NI][NJ];

void mm(void)
{
#pragma translate kernel
#pragma translate split_iname("i", 16, outer_tag="g.1")
#pragma translate split_iname("i_inner", 4, outer_tag="TAG", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0")
#pragma translate split_iname("j_inner", 4, outer_tag="TAG", inner_tag="l.0")
#pragma translate split_iname("k", 8)
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_outer", "acc")
#pragma translate add_prefetch("A", ["i_inner_outer", "i_inner_inner", "k_inner"])
#pragma translate add_prefetch("B", ["k_inner", "j_inner_outer", "j_inner_inner"])
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
  mm();
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      sum += C[i][j] * (i + 2 * j + 1);
  printf("checksum %.17g\n", sum);
  printf("C[0][0] %.17g C[17][20] %.17g C[%d][%d] %.17g\n", C[0][0], C[17][20], NI - 1, NJ - 1,
         C[NI - 1][NJ - 1]);
  return 0;
}
