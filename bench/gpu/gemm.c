/* Dense matrix products C = A*B (n x n, row-major), float and double, register-blocked from
 * pragmas (docs/pragmas.md, "Dense kernels"), multiply-adds contracted to FMA
 * (set_options("fp_contract")).  sgemm: 128x128 tiles per work group of 16x16 work items, 8x8
 * outputs per work item (rows l.1 + 16*r, columns 64*h + 4*l.0 + c: runs of 4 neighbouring
 * columns), k in steps of 32 and inside a step by 4 unrolled, both operand tiles prefetched into
 * local memory; each unrolled read of 4 neighbouring local elements becomes one 16-byte vector
 * load.  dgemm: 128x64 tiles, 8x4 outputs per work item (8x8 doubles need about 230 registers
 * and halve the occupancy), k in steps of 32 by 2 unrolled, 16-byte (double2) loads.
 * Usage: gemm [n] [reps]. */
#include <stdio.h>
#include <stdlib.h>


static void sgemm(int n, const float a[n][n], const float b[n][n], float c[n][n])
{
#pragma translate kernel sgemm
#pragma translate set_options("fp_contract")
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 128, outer_tag="g.0")
#pragma translate split_iname("j_inner", 64, outer_tag="unr")
#pragma translate split_iname("j_inner_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 32)
#pragma translate split_iname("k_inner", 4, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_outer,j_inner_inner_inner", "acc")
#pragma translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto")
#pragma translate add_prefetch("b", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner_outer", "j_inner_inner_inner"], default_tag="l.auto")
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      float acc = 0.0f;
      for (int k = 0; k < n; k++)
        acc += a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

static void dgemm(int n, const double a[n][n], const double b[n][n], double c[n][n])
{
#pragma translate kernel dgemm
#pragma translate set_options("fp_contract")
#pragma translate split_iname("i", 128, outer_tag="g.1")
#pragma translate split_iname("i_inner", 16, outer_tag="unr", inner_tag="l.1")
#pragma translate split_iname("j", 64, outer_tag="g.0")
#pragma translate split_iname("j_inner", 4, outer_tag="l.0", inner_tag="unr")
#pragma translate split_iname("k", 32)
#pragma translate split_iname("k_inner", 2, inner_tag="unr")
#pragma translate privatize_temporaries_with_inames("i_inner_outer,j_inner_inner", "acc")
#pragma translate add_prefetch("a", ["i_inner_outer", "i_inner_inner", "k_inner_outer", "k_inner_inner"], default_tag="l.auto")
#pragma translate add_prefetch("b", ["k_inner_outer", "k_inner_inner", "j_inner_outer", "j_inner_inner"], default_tag="l.auto")
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += a[i][k] * b[k][j];
      c[i][j] = acc;
    }
#pragma translate end kernel
}

int main(int argc, char **argv)
{
  int n = argc > 1 ? atoi(argv[1]) : 4096, reps = argc > 2 ? atoi(argv[2]) : 5;
  float *a = malloc((long)n * n * sizeof *a), *b = malloc((long)n * n * sizeof *b);
  float *c = malloc((long)n * n * sizeof *c);
  double sum = 0.0;
  for (long i = 0; i < (long)n * n; i++) {
    a[i] = (float)(i % 7) - 3.0f;
    b[i] = (float)(i % 5) * 0.5f;
  }
  double *da = malloc((long)n * n * sizeof *da), *db = malloc((long)n * n * sizeof *db);
  double *dc = malloc((long)n * n * sizeof *dc), dsum = 0.0;
  for (long i = 0; i < (long)n * n; i++) {
    da[i] = a[i];
    db[i] = b[i];
  }
  for (int r = 0; r < reps; r++) {
    sgemm(n, (const float (*)[n])a, (const float (*)[n])b, (float (*)[n])c);
    dgemm(n, (const double (*)[n])da, (const double (*)[n])db, (double (*)[n])dc);
  }
  for (long i = 0; i < (long)n * n; i++) {
    sum += c[i];
    dsum += dc[i];
  }
  printf("checksum %.17g %.17g c[1] %.9g\n", sum, dsum, c[1]);
  free(a); free(b); free(c); free(da); free(db); free(dc);
  return 0;
}
