/* PoCL 3.1 (LLVM 15, pthread device) computes this kernel wrongly (h75): jump threading clones
 * the latch of the barriered loop into the guarded statement after it.  The default work-group
 * method ends in heap corruption ("free(): invalid next size", "double free or corruption") or
 * a segmentation fault; POCL_WORK_GROUP_METHOD=loops stops at ParallelRegion::Verify
 * ("suspicious block: for.inc.thread ... Incoming edges to non-entry block!").  Oclgrind runs it
 * with no race, no out-of-bounds access and no divergent barrier.  Right on PoCL: the second
 * guard's conjuncts swapped (threaded_exit_swapped.cl), a barrier after the loop
 * (threaded_exit_barrier.cl), or -cl-opt-disable.  Run: compare.py threaded_exit.cl */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) covariance_k2(__global double const *restrict data, __global double *restrict cov, int const m, int const n, double const fn)
{
  int const x = (int) get_local_id(0);
  int const y = (int) get_local_id(1);
  if (y <= 4 * x + 2 && 4 * x < m - 2)
    cov[y * 40 + 2 + x * 4] = 0.0;
  if (4 * x < m - 2 && y < 4 * x - 29)
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
