/* Matrix multiply benchmark, float32, N x N: two translated versions of the same loop nest.
 *   naive: i and j on 16 x 16 work groups, operands read from global memory;
 *   tiled: the same plus both operands staged in local memory (add_prefetch);
 *   tiled_fma: tiled with fp_contract=True (fused multiply-adds, as nvcc does by default);
 *   tiled_fma_unr: tiled_fma with the 16-step inner loop unrolled.
 * Build and run: see bench/matmul/run.sh.  TRANSLATE_PROFILE=1 reports per-region kernel time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef N
#define N 2048
#endif
#ifndef REPS
#define REPS 5
#endif

static float A[N][N], B[N][N], C1[N][N], C2[N][N], C3[N][N], C4[N][N];

void naive(void)
{
#pragma translate kernel naive
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < N; k++)
        acc += A[i][k] * B[k][j];
      C1[i][j] = acc;
    }
#pragma translate end kernel
}

void tiled(void)
{
#pragma translate kernel tiled
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("k", 16)
#pragma translate add_prefetch("A", ["i_inner", "k_inner"])
#pragma translate add_prefetch("B", ["k_inner", "j_inner"])
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < N; k++)
        acc += A[i][k] * B[k][j];
      C2[i][j] = acc;
    }
#pragma translate end kernel
}

/* tiled, letting the OpenCL compiler fuse multiply-adds (as nvcc does by default) */
void tiled_fma(void)
{
#pragma translate kernel tiled_fma
#pragma translate set_options(fp_contract=True)
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("k", 16)
#pragma translate add_prefetch("A", ["i_inner", "k_inner"])
#pragma translate add_prefetch("B", ["k_inner", "j_inner"])
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < N; k++)
        acc += A[i][k] * B[k][j];
      C3[i][j] = acc;
    }
#pragma translate end kernel
}

/* tiled_fma with the 16-step inner loop unrolled */
void tiled_fma_unr(void)
{
#pragma translate kernel tiled_fma_unr
#pragma translate set_options(fp_contract=True)
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("k", 16, inner_tag="unr")
#pragma translate add_prefetch("A", ["i_inner", "k_inner"])
#pragma translate add_prefetch("B", ["k_inner", "j_inner"])
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < N; k++)
        acc += A[i][k] * B[k][j];
      C4[i][j] = acc;
    }
#pragma translate end kernel
}

int main(void)
{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (float)((i * 7 + j * 3) % 17) / 17.0f;
      B[i][j] = (float)((i * 5 + j * 11) % 13) / 13.0f;
    }
  for (int r = 0; r < REPS; r++) {
    naive();
    tiled();
    tiled_fma();
    tiled_fma_unr();
  }
  double diff = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      diff += (double)(C1[i][j] - C2[i][j]) * (C1[i][j] - C2[i][j]);
  double rel = 0.0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double d3 = fabs((C3[i][j] - C1[i][j]) / C1[i][j]), d4 = fabs((C4[i][j] - C1[i][j]) / C1[i][j]);
      rel = d3 > rel ? d3 : rel;
      rel = d4 > rel ? d4 : rel;
    }
  printf("N=%d reps=%d  C[0][0]=%.6g C[N-1][N-1]=%.6g  |naive-tiled|^2=%g  "
         "max relative difference of the fma variants=%g\n",
         N, REPS, (double)C2[0][0], (double)C2[N - 1][N - 1], diff, rel);
  return 0;
}
