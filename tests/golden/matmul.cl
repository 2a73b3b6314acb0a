#pragma OPENCL FP_CONTRACT OFF

__kernel void __attribute__ ((reqd_work_group_size(16, 16, 1))) matmul(__global float const *restrict a, __global float const *restrict b, __global float *restrict c, int const l, int const m, int const n)
{
  float _tr_acc;
  int const i_inner = (int) get_local_id(1);
  int const i_outer = (int) get_group_id(1);
  int const j_inner = (int) get_local_id(0);
  int const j_outer = (int) get_group_id(0);

  if (l >= 1)
    _tr_acc = 0.0f;
  if (j_inner + 16 * j_outer < m && i_inner + 16 * i_outer < n)
  {
    for (int k = 0; k <= l - 1; ++k)
    {
      _tr_acc = _tr_acc + a[(long) (i_inner + i_outer * 16) * l + k] * b[(long) k * m + j_inner + j_outer * 16];
    }
  }
  if (j_inner + 16 * j_outer < m && i_inner + 16 * i_outer < n && l >= 1)
    c[(long) (i_inner + i_outer * 16) * m + j_inner + j_outer * 16] = _tr_acc;
}
