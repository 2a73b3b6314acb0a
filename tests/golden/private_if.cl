#pragma OPENCL FP_CONTRACT OFF

__kernel void __attribute__ ((reqd_work_group_size(32, 1, 1))) private_if(__global float const *restrict a, __global float *restrict out, int const n)
{
  float t[4];
  int const i_inner = (int) get_local_id(0);
  int const i_outer = (int) get_group_id(0);

  if (i_inner + 32 * i_outer < n)
  {
    for (int k = 0; k <= 3; ++k)
    {
      t[k] = a[i_inner + i_outer * 32] * (float) (k + 1);
    }
  }
  if (i_inner + 32 * i_outer < n)
    out[i_inner + i_outer * 32] = a[i_inner + i_outer * 32] > 0 ? t[0] + t[3] : t[1] - t[2];
}
