#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) covariance_k2(__global double const *restrict data, __global double *restrict cov, int const m, int const n, double const fn)
{
  int const x = (int) get_local_id(0);
  int const y = (int) get_local_id(1);
  if (y <= 4 * x + 2 && 4 * x < m - 2)
    cov[y * 40 + 2 + x * 4] = 0.0;
  if (y < 4 * x - 29 && 4 * x < m - 2)
    cov[(y + 32) * 40 + 2 + x * 4] = 0.0;
  for (int k = 0; 16 * k <= n - 1; ++k)
  {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (y <= 4 * x + 2 && 4 * x < m - 2)
      cov[y * 40 + 2 + x * 4] += 1.0;
  }
  if (y <= 4 * x + 2 && 4 * x < m - 2)
    cov[(2 + x * 4) * 40 + y] = cov[y * 40 + 2 + x * 4];
}
