#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void __attribute__ ((reqd_work_group_size(1, 1, 1))) triangle(__global double const *restrict a, __global double *restrict out, int const n)
{
  int const i = (int) get_group_id(0);

  for (int j = 0; j <= i; ++j)
  {
    out[(long) i * n + j] = 2 * a[(long) i * n + j] + j;
  }
}
