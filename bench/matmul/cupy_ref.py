"""Reference timings on the same GPU: a classic hand-written CUDA shared-memory tiled matmul
(16 x 16 tiles) and cuBLAS (cupy.matmul), float32, N x N.  Prints GFLOP/s."""

import sys

import cupy as cp

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2048
TILED = r"""
extern "C" __global__ void tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[16][16], Bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += 16) {
    As[ty][tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < n && col < n) ? B[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < 16; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = acc;
}
"""


def timed(fn, reps=5):
    fn()
    cp.cuda.Device().synchronize()
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(reps):
        fn()
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop) / reps * 1e-3


a = cp.random.rand(N, N, dtype=cp.float32)
b = cp.random.rand(N, N, dtype=cp.float32)
c = cp.empty((N, N), dtype=cp.float32)
kernel = cp.RawKernel(TILED, "tiled")
grid = ((N + 15) // 16, (N + 15) // 16)
t_hand = timed(lambda: kernel(grid, (16, 16), (a, b, c, cp.int32(N))))
assert cp.allclose(c, a @ b, rtol=1e-3, atol=1e-3)
t_blas = timed(lambda: cp.matmul(a, b, out=c))
flop = 2.0 * N ** 3
print(f"hand-written CUDA tiled 16x16: {t_hand * 1e3:8.3f} ms  {flop / t_hand / 1e9:8.1f} GFLOP/s")
print(f"cuBLAS (cupy.matmul):          {t_blas * 1e3:8.3f} ms  {flop / t_blas / 1e9:8.1f} GFLOP/s")
