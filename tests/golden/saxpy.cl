#pragma OPENCL FP_CONTRACT OFF

__kernel void __attribute__ ((reqd_work_group_size(128, 1, 1))) saxpy(__global float const *restrict x, __global float *restrict y, float const a, int const n)
{
  int const i_inner = (int) get_local_id(0);
  int const i_outer = (int) get_group_id(0);

  if (i_inner + 128 * i_outer < n)
    y[i_inner + i_outer * 128] = a * x[i_inner + i_outer * 128] + y[i_inner + i_outer * 128];
}
