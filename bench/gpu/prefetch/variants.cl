/* Variants of the 2-D five-point stencil (b = 0.2 * five points of a, n x n doubles) that
 * isolate what add_prefetch costs on a GPU.  pf16_gen, pf32_gen and plain32 are the kernels
 * translate generated for bench/gpu/stencil.c (s2d_pf16, s2d_pf32, s2d), copied verbatim
 * without #line; the others change one thing each:
 *   plain16      no prefetch, 16x16 work groups (the tile shape alone)
 *   pf16_const   generated fetch, loops with constant trip counts (guard inside), unrolled
 *   pf16_flat    the 18x18 tile fetched as one flat range over the 256 work items
 *                (two passes, the second warp-uniformly partial)
 *   pf16_flatfull pf16_flat plus a guard-free copy for groups whose tile lies inside
 *   pf32_flat    the 10x34 tile of 32x8 groups fetched flat
 *   pf16_const_nounroll  pf16_const without the unroll pragmas
 *   pf16_new, pf32_new   what translate generates after the fix (constant trip counts for
 *                fetch loops, TreeEmitter.uniform_trips), verbatim
 * Timed by bench/gpu/prefetch/pfx.c. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void __attribute__ ((reqd_work_group_size(32, 8, 1))) plain32(__global double const *restrict a, __global double *restrict b, int const n)
{
  int const i_inner = (int) get_local_id(1);
  int const i_outer = (int) get_group_id(1);
  int const j_inner = (int) get_local_id(0);
  int const j_outer = (int) get_group_id(0);

  if (j_inner + 32 * j_outer < n - 1 && j_inner + 32 * j_outer >= 1 && i_inner + 8 * i_outer >= 1 && i_inner + 8 * i_outer < n - 1)
    b[(i_inner + i_outer * 8) * n + j_inner + j_outer * 32] = 0.2 * (a[(i_inner + i_outer * 8) * n + j_inner + j_outer * 32] + a[(i_inner + i_outer * 8 - 1) * n + j_inner + j_outer * 32] + a[(i_inner + i_outer * 8 + 1) * n + j_inner + j_outer * 32] + a[(i_inner + i_outer * 8) * n + j_inner + j_outer * 32 - 1] + a[(i_inner + i_outer * 8) * n + j_inner + j_outer * 32 + 1]);
}

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) pf16_gen(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[324];
  int const a_dim_0_inner = (int) get_local_id(1);
  int const a_dim_1_inner = (int) get_local_id(0);
  int const i_inner = (int) get_local_id(1);
  int const i_outer = (int) get_group_id(1);
  int const j_inner = (int) get_local_id(0);
  int const j_outer = (int) get_group_id(0);

  if (n >= 3)
  {
    for (int a_dim_0_outer = 0; 16 * a_dim_0_outer <= -a_dim_0_inner + 17; ++a_dim_0_outer)
    {
      for (int a_dim_1_outer = 0; 16 * a_dim_1_outer <= -a_dim_1_inner + 17; ++a_dim_1_outer)
      {
        if (16 * i_outer + (a_dim_0_inner + a_dim_0_outer * 16) <= n && 16 * i_outer + (a_dim_0_inner + a_dim_0_outer * 16) >= 1 && 16 * j_outer + (a_dim_1_inner + a_dim_1_outer * 16) <= n && 16 * j_outer + (a_dim_1_inner + a_dim_1_outer * 16) >= 1)
          a_fetch[(a_dim_0_inner + a_dim_0_outer * 16) * 18 + a_dim_1_inner + a_dim_1_outer * 16] = a[(a_dim_0_inner + a_dim_0_outer * 16 + 16 * i_outer - 1) * n + a_dim_1_inner + a_dim_1_outer * 16 + 16 * j_outer - 1];
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);  /* a_fetch written by a_fetch_rule, used by insn */
  if (j_inner + 16 * j_outer < n - 1 && j_inner + 16 * j_outer >= 1 && i_inner + 16 * i_outer >= 1 && i_inner + 16 * i_outer < n - 1)
    b[(i_inner + i_outer * 16) * n + j_inner + j_outer * 16] = 0.2 * (a_fetch[(i_inner + 1) * 18 + j_inner + 1] + a_fetch[i_inner * 18 + j_inner + 1] + a_fetch[(i_inner + 2) * 18 + j_inner + 1] + a_fetch[(i_inner + 1) * 18 + j_inner] + a_fetch[(i_inner + 1) * 18 + j_inner + 2]);
}

__kernel void __attribute__ ((reqd_work_group_size(32, 8, 1))) pf32_gen(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[340];
  int const a_dim_0_inner = (int) get_local_id(1);
  int const a_dim_1_inner = (int) get_local_id(0);
  int const i_inner = (int) get_local_id(1);
  int const i_outer = (int) get_group_id(1);
  int const j_inner = (int) get_local_id(0);
  int const j_outer = (int) get_group_id(0);

  if (n >= 3)
  {
    for (int a_dim_0_outer = 0; 8 * a_dim_0_outer <= -a_dim_0_inner + 9; ++a_dim_0_outer)
    {
      for (int a_dim_1_outer = 0; 32 * a_dim_1_outer <= -a_dim_1_inner + 33; ++a_dim_1_outer)
      {
        if (32 * j_outer + (a_dim_1_inner + a_dim_1_outer * 32) <= n && 32 * j_outer + (a_dim_1_inner + a_dim_1_outer * 32) >= 1 && 8 * i_outer + (a_dim_0_inner + a_dim_0_outer * 8) <= n && 8 * i_outer + (a_dim_0_inner + a_dim_0_outer * 8) >= 1)
          a_fetch[(a_dim_0_inner + a_dim_0_outer * 8) * 34 + a_dim_1_inner + a_dim_1_outer * 32] = a[(a_dim_0_inner + a_dim_0_outer * 8 + 8 * i_outer - 1) * n + a_dim_1_inner + a_dim_1_outer * 32 + 32 * j_outer - 1];
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);  /* a_fetch written by a_fetch_rule, used by insn */
  if (j_inner + 32 * j_outer < n - 1 && j_inner + 32 * j_outer >= 1 && i_inner + 8 * i_outer >= 1 && i_inner + 8 * i_outer < n - 1)
    b[(i_inner + i_outer * 8) * n + j_inner + j_outer * 32] = 0.2 * (a_fetch[(i_inner + 1) * 34 + j_inner + 1] + a_fetch[i_inner * 34 + j_inner + 1] + a_fetch[(i_inner + 2) * 34 + j_inner + 1] + a_fetch[(i_inner + 1) * 34 + j_inner] + a_fetch[(i_inner + 1) * 34 + j_inner + 2]);
}

#define POINT(A, c, w) (0.2 * (A[c] + A[(c) - (w)] + A[(c) + (w)] + A[(c) - 1] + A[(c) + 1]))

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) plain16(__global double const *restrict a, __global double *restrict b, int const n)
{
  int const i = (int) get_global_id(1), j = (int) get_global_id(0);
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    b[i * n + j] = POINT(a, i * n + j, n);
}

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) pf16_const(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[324];
  int const ii = (int) get_local_id(1), ji = (int) get_local_id(0);
  int const io = (int) get_group_id(1), jo = (int) get_group_id(0);
#pragma unroll
  for (int r = 0; r < 2; ++r)
#pragma unroll
    for (int c = 0; c < 2; ++c) {
      int const fr = ii + 16 * r, fc = ji + 16 * c;
      if (fr <= 17 && fc <= 17 && 16 * io + fr <= n && 16 * io + fr >= 1 && 16 * jo + fc <= n && 16 * jo + fc >= 1)
        a_fetch[fr * 18 + fc] = a[(16 * io + fr - 1) * n + 16 * jo + fc - 1];
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ji + 16 * jo < n - 1 && ji + 16 * jo >= 1 && ii + 16 * io >= 1 && ii + 16 * io < n - 1)
    b[(ii + io * 16) * n + ji + jo * 16] = POINT(a_fetch, (ii + 1) * 18 + ji + 1, 18);
}

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) pf16_flat(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[324];
  int const ii = (int) get_local_id(1), ji = (int) get_local_id(0);
  int const io = (int) get_group_id(1), jo = (int) get_group_id(0);
  int const lid = ii * 16 + ji;
#pragma unroll
  for (int p = 0; p < 2; ++p) {
    int const f = lid + 256 * p, fr = f / 18, fc = f - 18 * fr;
    if (f < 324 && 16 * io + fr <= n && 16 * io + fr >= 1 && 16 * jo + fc <= n && 16 * jo + fc >= 1)
      a_fetch[f] = a[(16 * io + fr - 1) * n + 16 * jo + fc - 1];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ji + 16 * jo < n - 1 && ji + 16 * jo >= 1 && ii + 16 * io >= 1 && ii + 16 * io < n - 1)
    b[(ii + io * 16) * n + ji + jo * 16] = POINT(a_fetch, (ii + 1) * 18 + ji + 1, 18);
}

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) pf16_flatfull(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[324];
  int const ii = (int) get_local_id(1), ji = (int) get_local_id(0);
  int const io = (int) get_group_id(1), jo = (int) get_group_id(0);
  int const lid = ii * 16 + ji;
  if (io >= 1 && jo >= 1 && 16 * io + 17 <= n && 16 * jo + 17 <= n) {   /* uniform per group */
    __global double const *base = a + (16 * io - 1) * n + 16 * jo - 1;
    a_fetch[lid] = base[(lid / 18) * n + lid % 18];
    if (lid < 324 - 256)
      a_fetch[lid + 256] = base[((lid + 256) / 18) * n + (lid + 256) % 18];
  } else {
    for (int p = 0; p < 2; ++p) {
      int const f = lid + 256 * p, fr = f / 18, fc = f - 18 * fr;
      if (f < 324 && 16 * io + fr <= n && 16 * io + fr >= 1 && 16 * jo + fc <= n && 16 * jo + fc >= 1)
        a_fetch[f] = a[(16 * io + fr - 1) * n + 16 * jo + fc - 1];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ji + 16 * jo < n - 1 && ji + 16 * jo >= 1 && ii + 16 * io >= 1 && ii + 16 * io < n - 1)
    b[(ii + io * 16) * n + ji + jo * 16] = POINT(a_fetch, (ii + 1) * 18 + ji + 1, 18);
}

__kernel void __attribute__ ((reqd_work_group_size(32, 8, 1))) pf32_flat(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[340];
  int const ii = (int) get_local_id(1), ji = (int) get_local_id(0);
  int const io = (int) get_group_id(1), jo = (int) get_group_id(0);
  int const lid = ii * 32 + ji;
#pragma unroll
  for (int p = 0; p < 2; ++p) {
    int const f = lid + 256 * p, fr = f / 34, fc = f - 34 * fr;
    if (f < 340 && 8 * io + fr <= n && 8 * io + fr >= 1 && 32 * jo + fc <= n && 32 * jo + fc >= 1)
      a_fetch[f] = a[(8 * io + fr - 1) * n + 32 * jo + fc - 1];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ji + 32 * jo < n - 1 && ji + 32 * jo >= 1 && ii + 8 * io >= 1 && ii + 8 * io < n - 1)
    b[(ii + io * 8) * n + ji + jo * 32] = POINT(a_fetch, (ii + 1) * 34 + ji + 1, 34);
}

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) pf16_const_nounroll(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[324];
  int const ii = (int) get_local_id(1), ji = (int) get_local_id(0);
  int const io = (int) get_group_id(1), jo = (int) get_group_id(0);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 2; ++c) {
      int const fr = ii + 16 * r, fc = ji + 16 * c;
      if (fr <= 17 && fc <= 17 && 16 * io + fr <= n && 16 * io + fr >= 1 && 16 * jo + fc <= n && 16 * jo + fc >= 1)
        a_fetch[fr * 18 + fc] = a[(16 * io + fr - 1) * n + 16 * jo + fc - 1];
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ji + 16 * jo < n - 1 && ji + 16 * jo >= 1 && ii + 16 * io >= 1 && ii + 16 * io < n - 1)
    b[(ii + io * 16) * n + ji + jo * 16] = POINT(a_fetch, (ii + 1) * 18 + ji + 1, 18);
}

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) pf16_new(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[324];
  int const a_dim_0_inner = (int) get_local_id(1);
  int const a_dim_1_inner = (int) get_local_id(0);
  int const i_inner = (int) get_local_id(1);
  int const i_outer = (int) get_group_id(1);
  int const j_inner = (int) get_local_id(0);
  int const j_outer = (int) get_group_id(0);

  if (n >= 3)
  {
    #pragma unroll
    for (int a_dim_0_outer = 0; a_dim_0_outer <= 1; ++a_dim_0_outer)
    {
      if (a_dim_0_inner + 16 * a_dim_0_outer <= 17)
      {
        #pragma unroll
        for (int a_dim_1_outer = 0; a_dim_1_outer <= 1; ++a_dim_1_outer)
        {
          if (a_dim_1_inner + 16 * a_dim_1_outer <= 17 && 16 * i_outer + (a_dim_0_inner + a_dim_0_outer * 16) <= n && 16 * i_outer + (a_dim_0_inner + a_dim_0_outer * 16) >= 1 && 16 * j_outer + (a_dim_1_inner + a_dim_1_outer * 16) <= n && 16 * j_outer + (a_dim_1_inner + a_dim_1_outer * 16) >= 1)
            a_fetch[(a_dim_0_inner + a_dim_0_outer * 16) * 18 + a_dim_1_inner + a_dim_1_outer * 16] = a[(a_dim_0_inner + a_dim_0_outer * 16 + 16 * i_outer - 1) * n + a_dim_1_inner + a_dim_1_outer * 16 + 16 * j_outer - 1];
        }
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);  /* a_fetch written by a_fetch_rule, used by insn */
  if (j_inner + 16 * j_outer < n - 1 && j_inner + 16 * j_outer >= 1 && i_inner + 16 * i_outer >= 1 && i_inner + 16 * i_outer < n - 1)
    b[(i_inner + i_outer * 16) * n + j_inner + j_outer * 16] = 0.2 * (a_fetch[(i_inner + 1) * 18 + j_inner + 1] + a_fetch[i_inner * 18 + j_inner + 1] + a_fetch[(i_inner + 2) * 18 + j_inner + 1] + a_fetch[(i_inner + 1) * 18 + j_inner] + a_fetch[(i_inner + 1) * 18 + j_inner + 2]);
}

__kernel void __attribute__ ((reqd_work_group_size(32, 8, 1))) pf32_new(__global double const *restrict a, __global double *restrict b, int const n)
{
  __local double a_fetch[340];
  int const a_dim_0_inner = (int) get_local_id(1);
  int const a_dim_1_inner = (int) get_local_id(0);
  int const i_inner = (int) get_local_id(1);
  int const i_outer = (int) get_group_id(1);
  int const j_inner = (int) get_local_id(0);
  int const j_outer = (int) get_group_id(0);

  if (n >= 3)
  {
    #pragma unroll
    for (int a_dim_0_outer = 0; a_dim_0_outer <= 1; ++a_dim_0_outer)
    {
      if (a_dim_0_inner + 8 * a_dim_0_outer <= 9)
      {
        #pragma unroll
        for (int a_dim_1_outer = 0; a_dim_1_outer <= 1; ++a_dim_1_outer)
        {
          if (a_dim_1_inner + 32 * a_dim_1_outer <= 33 && 32 * j_outer + (a_dim_1_inner + a_dim_1_outer * 32) <= n && 32 * j_outer + (a_dim_1_inner + a_dim_1_outer * 32) >= 1 && 8 * i_outer + (a_dim_0_inner + a_dim_0_outer * 8) <= n && 8 * i_outer + (a_dim_0_inner + a_dim_0_outer * 8) >= 1)
            a_fetch[(a_dim_0_inner + a_dim_0_outer * 8) * 34 + a_dim_1_inner + a_dim_1_outer * 32] = a[(a_dim_0_inner + a_dim_0_outer * 8 + 8 * i_outer - 1) * n + a_dim_1_inner + a_dim_1_outer * 32 + 32 * j_outer - 1];
        }
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);  /* a_fetch written by a_fetch_rule, used by insn */
  if (j_inner + 32 * j_outer < n - 1 && j_inner + 32 * j_outer >= 1 && i_inner + 8 * i_outer >= 1 && i_inner + 8 * i_outer < n - 1)
    b[(i_inner + i_outer * 8) * n + j_inner + j_outer * 32] = 0.2 * (a_fetch[(i_inner + 1) * 34 + j_inner + 1] + a_fetch[i_inner * 34 + j_inner + 1] + a_fetch[(i_inner + 2) * 34 + j_inner + 1] + a_fetch[(i_inner + 1) * 34 + j_inner] + a_fetch[(i_inner + 1) * 34 + j_inner + 2]);
}
