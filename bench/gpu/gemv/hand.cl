/* Hand-written exact-order gemv shapes (h29): which access shape reaches the memory rate when
 * every output is summed by one work item in source order.  "t": y[j] = sum_i a[i*n+j] x[i];
 * "n": y[i] = sum_j a[i*n+j] x[j]. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL FP_CONTRACT OFF

__kernel void t_plain(__global const double *restrict a, __global const double *restrict x,
                      __global double *restrict y, int n)
{
  int j = get_global_id(0);
  if (j >= n) return;
  double acc = 0.0;
  for (int i = 0; i < n; i++)
    acc = acc + a[(long)i * n + j] * x[i];
  y[j] = acc;
}

__kernel void t_reg8(__global const double *restrict a, __global const double *restrict x,
                     __global double *restrict y, int n)
{
  int j = get_global_id(0);
  if (j >= n) return;
  double acc = 0.0;
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    double v[8];
#pragma unroll
    for (int u = 0; u < 8; u++) v[u] = a[(long)(i + u) * n + j];
#pragma unroll
    for (int u = 0; u < 8; u++) acc = acc + v[u] * x[i + u];
  }
  for (; i < n; i++)
    acc = acc + a[(long)i * n + j] * x[i];
  y[j] = acc;
}

/* each work item 2 neighbouring columns (one 16-byte load per row) */
__kernel void t_c2(__global const double *restrict a, __global const double *restrict x,
                   __global double *restrict y, int n)
{
  int j = 2 * get_global_id(0);
  if (j + 1 >= n) return;
  double acc0 = 0.0, acc1 = 0.0;
  for (int i = 0; i < n; i++) {
    double2 v = vload2(0, a + (long)i * n + j);
    double xi = x[i];
    acc0 = acc0 + v.x * xi;
    acc1 = acc1 + v.y * xi;
  }
  y[j] = acc0; y[j + 1] = acc1;
}

__kernel void t_c4(__global const double *restrict a, __global const double *restrict x,
                   __global double *restrict y, int n)
{
  int j = 4 * get_global_id(0);
  if (j + 3 >= n) return;
  double acc0 = 0.0, acc1 = 0.0, acc2 = 0.0, acc3 = 0.0;
  for (int i = 0; i < n; i++) {
    double4 v = vload4(0, a + (long)i * n + j);
    double xi = x[i];
    acc0 = acc0 + v.x * xi; acc1 = acc1 + v.y * xi;
    acc2 = acc2 + v.z * xi; acc3 = acc3 + v.w * xi;
  }
  y[j] = acc0; y[j + 1] = acc1; y[j + 2] = acc2; y[j + 3] = acc3;
}

/* rows split over 4 groups of rows?  no: "n" shapes */
__kernel void n_plain(__global const double *restrict a, __global const double *restrict x,
                      __global double *restrict y, int n)
{
  int i = get_global_id(0);
  if (i >= n) return;
  double acc = 0.0;
  for (int j = 0; j < n; j++)
    acc = acc + a[(long)i * n + j] * x[j];
  y[i] = acc;
}

/* each work item reads its row 4 doubles at a time (one 32-byte sector), 4 loads ahead */
__kernel void n_vec4x4(__global const double *restrict a, __global const double *restrict x,
                       __global double *restrict y, int n)
{
  int i = get_global_id(0);
  if (i >= n) return;
  __global const double *row = a + (long)i * n;
  double acc = 0.0;
  int j = 0;
  for (; j + 16 <= n; j += 16) {
    double4 v0 = vload4(0, row + j), v1 = vload4(1, row + j);
    double4 v2 = vload4(2, row + j), v3 = vload4(3, row + j);
    acc = acc + v0.x * x[j] ; acc = acc + v0.y * x[j + 1];
    acc = acc + v0.z * x[j + 2]; acc = acc + v0.w * x[j + 3];
    acc = acc + v1.x * x[j + 4]; acc = acc + v1.y * x[j + 5];
    acc = acc + v1.z * x[j + 6]; acc = acc + v1.w * x[j + 7];
    acc = acc + v2.x * x[j + 8]; acc = acc + v2.y * x[j + 9];
    acc = acc + v2.z * x[j + 10]; acc = acc + v2.w * x[j + 11];
    acc = acc + v3.x * x[j + 12]; acc = acc + v3.y * x[j + 13];
    acc = acc + v3.z * x[j + 14]; acc = acc + v3.w * x[j + 15];
  }
  for (; j < n; j++)
    acc = acc + row[j] * x[j];
  y[i] = acc;
}

/* 32 rows per group of 256: all 8 warps load a 32 x 128 tile (row stride 129), warp 0 sums */
#define TR 32
#define TK 128
__kernel void n_tile256(__global const double *restrict a, __global const double *restrict x,
                        __global double *restrict y, int n)
{
  __local double tile[TR * (TK + 1)];
  __local double xt[TK];
  int lid = get_local_id(0), row0 = get_group_id(0) * TR;
  int lane = lid % 32, warp = lid / 32;
  double acc = 0.0;
  for (int k0 = 0; k0 < n; k0 += TK) {
    for (int r = warp; r < TR; r += 8)
#pragma unroll
      for (int c = lane; c < TK; c += 32)
        tile[r * (TK + 1) + c] = (row0 + r < n && k0 + c < n) ? a[(long)(row0 + r) * n + k0 + c] : 0.0;
    if (lid < TK) xt[lid] = k0 + lid < n ? x[k0 + lid] : 0.0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < TR) {
      int kk = min(TK, n - k0);
      for (int c = 0; c < kk; c++)
        acc = acc + tile[lid * (TK + 1) + c] * xt[c];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid < TR && row0 + lid < n) y[row0 + lid] = acc;
}
