/* samples/c/covariance.c's covariance_k2 as translated with h73's guard gist, reduced by reduce.py
 * (PoCL vs Oclgrind): PoCL crashes.  Run: compare.py covariance_k2_reduced.cl */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) covariance_k2(__global double const *restrict data, __global double *restrict cov, int const m, int const n, double const fn)
{
  __local double data_fetch[640];
  __local double data_fetch_0[640];
  int const data_dim_0 = (int) get_local_id(1);
  int const data_dim_1 = (int) get_local_id(1);
  int const data_dim_1_inner = (int) get_local_id(0);
  int const data_dim_2_inner = (int) get_local_id(0);
  int const i_2_inner_inner = (int) get_local_id(1);
  int const i_2_outer = (int) get_group_id(1);
  int const j_2_inner_outer = (int) get_local_id(0);
  int const j_2_outer = (int) get_group_id(0);

  if (i_2_inner_inner <= 4 * j_2_inner_outer + 2 && 4 * j_2_inner_outer < m - 2)
    cov[(i_2_inner_inner + 0 * 16 + i_2_outer * 128) * 40 + 2 + j_2_inner_outer * 4 + j_2_outer * 64] = 0.0;
  if (4 * j_2_inner_outer < m - 2 && i_2_inner_inner < 4 * j_2_inner_outer - 29)
    cov[(i_2_inner_inner + 2 * 16 + i_2_outer * 128) * 40 + 2 + j_2_inner_outer * 4 + j_2_outer * 64] = 0.0;
  for (int k_outer = 0; 16 * k_outer <= n - 1; ++k_outer)
  {
    #pragma unroll
    for (int data_dim_1_outer = 0; data_dim_1_outer <= 2; ++data_dim_1_outer)
    {
      if (data_dim_1_inner + 16 * data_dim_1_outer <= 39 && 16 * k_outer + data_dim_0 < n && 16 * k_outer + data_dim_0 <= 49 && data_dim_1_inner + data_dim_1_outer * 16 < m)
        data_fetch[data_dim_0 * 40 + data_dim_1_inner + data_dim_1_outer * 16] = data[(data_dim_0 + 16 * k_outer) * 40 + data_dim_1_inner + data_dim_1_outer * 16];
    }
    #pragma unroll
    for (int data_dim_2_outer = 0; data_dim_2_outer <= 2; ++data_dim_2_outer)
    {
      if (data_dim_2_inner + 16 * data_dim_2_outer <= 39 && 16 * k_outer + data_dim_1 < n && 16 * k_outer + data_dim_1 <= 49 && data_dim_2_inner + data_dim_2_outer * 16 < m)
        data_fetch_0[data_dim_1 * 40 + data_dim_2_inner + data_dim_2_outer * 16] = data[(data_dim_1 + 16 * k_outer) * 40 + data_dim_2_inner + data_dim_2_outer * 16];
    }
    barrier(CLK_LOCAL_MEM_FENCE);  /* data_fetch written by data_fetch_rule, used by insn_4 */
    if (16 * k_outer < n - 14)
    {  /* full tile: no bounds guards */
      for (int k_inner_outer = 0; k_inner_outer <= 7; ++k_inner_outer)
      {
        if (i_2_inner_inner <= 4 * j_2_inner_outer + 2 && 4 * j_2_inner_outer < m - 2)
          cov[(i_2_inner_inner + 0 * 16 + i_2_outer * 128) * 40 + 2 + j_2_inner_outer * 4 + j_2_outer * 64] = cov[(i_2_inner_inner + 0 * 16 + i_2_outer * 128) * 40 + 2 + j_2_inner_outer * 4 + j_2_outer * 64] + data_fetch[(0 + 2 * k_inner_outer) * 40 + i_2_inner_inner + 0 * 16 + i_2_outer * 128] * data_fetch_0[(0 + 2 * k_inner_outer) * 40 + 2 + j_2_inner_outer * 4 + j_2_outer * 64];
      }
    }
    else
    {
      for (int k_inner_outer = 0; k_inner_outer <= 7 && 2 * k_inner_outer <= -16 * k_outer + n - 1; ++k_inner_outer)
      {
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  /* next iteration: data_fetch read by insn_4, used by data_fetch_rule */
  }
  if (i_2_inner_inner <= 4 * j_2_inner_outer + 2 && 4 * j_2_inner_outer < m - 2)
  {
    cov[(2 + j_2_inner_outer * 4 + j_2_outer * 64) * 40 + i_2_inner_inner + 0 * 16 + i_2_outer * 128] = cov[(i_2_inner_inner + 0 * 16 + i_2_outer * 128) * 40 + 2 + j_2_inner_outer * 4 + j_2_outer * 64];
  }
}
