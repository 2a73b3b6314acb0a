/* General matrix multiply, C = alpha*A*B + beta*C, in the loop shape of linear algebra codes.
 *
 * The accumulator `acc` is declared inside the region, so it becomes a private temporary of
 * each work item; i and j are mapped onto 8x8 work groups, k stays a sequential loop.
 * (OpenCL may contract a*b + c into a fused multiply-add, hence the tolerance above.)
 */
#include <stdio.h>

#define NI 40
#define NJ 36
#define NK 50

static double A[NI][NK], B[NK][NJ], C[NI][NJ];

void gemm(double alpha, double beta)
{
#pragma translate kernel
#pragma translate split_iname("i", 8, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 8, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < NI; i++) {
    for (int j = 0; j < NJ; j++) {
      double acc = 0.0;
      for (int k = 0; k < NK; k++)
        acc += A[i][k] * B[k][j];
      C[i][j] = alpha * acc + beta * C[i][j];
    }
  }
#pragma translate end kernel
}

int main(void)
{
  double sum = 0.0;
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = (double)((i * k + 1) % 7) / 7.0;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = (double)((k + 2 * j) % 5) - 2.0;
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      C[i][j] = 0.5 * i - 0.25 * j;
  gemm(1.5, -0.5);
  for (int i = 0; i < NI; i++)
    for (int j = 0; j < NJ; j++)
      sum += C[i][j];
  printf("checksum %.17g\n", sum);
  printf("C[0][0] %.17g C[%d][%d] %.17g\n", C[0][0], NI - 1, NJ - 1, C[NI - 1][NJ - 1]);
  return 0;
}
