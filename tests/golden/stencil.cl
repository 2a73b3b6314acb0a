#pragma OPENCL FP_CONTRACT OFF

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) stencil(__global float const *restrict u, __global float *restrict out, int const n)
{
  int const i_inner = (int) get_local_id(1);
  int const i_outer = (int) get_group_id(1);
  int const j_inner = (int) get_local_id(0);
  int const j_outer = (int) get_group_id(0);

  if (j_inner + 16 * j_outer < n - 1 && j_inner + 16 * j_outer >= 1 && i_inner + 16 * i_outer >= 1 && i_inner + 16 * i_outer < n - 1)
    out[(long) (i_inner + i_outer * 16) * n + j_inner + j_outer * 16] = u[(long) (i_inner + i_outer * 16 - 1) * n + j_inner + j_outer * 16] + u[(long) (i_inner + i_outer * 16 + 1) * n + j_inner + j_outer * 16] + u[(long) (i_inner + i_outer * 16) * n + j_inner + j_outer * 16 - 1] + u[(long) (i_inner + i_outer * 16) * n + j_inner + j_outer * 16 + 1] - 4 * u[(long) (i_inner + i_outer * 16) * n + j_inner + j_outer * 16];
}
