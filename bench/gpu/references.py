"""Reference kernel times on the same GPU, for bench/gpu/run.sh: CuPy elementwise kernels,
hand-written CUDA kernels (raw, through CuPy) and cuBLAS (cupy.matmul).

Prints one line per kernel: ``ref NAME MS`` (milliseconds per call, CUDA events, median of
several timed batches).  Sizes match the translated programs' defaults in run.sh."""

from __future__ import annotations

import sys

import cupy as cp

STENCIL_2D = r"""
extern "C" __global__ void s2d(const double *a, double *b, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || j < 1 || i >= n - 1 || j >= n - 1) return;
  long c = (long)i * n + j;
  b[c] = 0.2 * (a[c] + a[c - n] + a[c + n] + a[c - 1] + a[c + 1]);
}
"""
STENCIL_3D = r"""
extern "C" __global__ void s3d(const double *a, double *b, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z;
  if (i < 1 || j < 1 || k < 1 || i >= n - 1 || j >= n - 1 || k >= n - 1) return;
  long s = (long)n * n, c = i * s + (long)j * n + k;
  b[c] = 0.125 * (a[c - s] + a[c + s] + a[c - n] + a[c + n] + a[c - 1] + a[c + 1])
         + 0.25 * a[c];
}
"""
DOT = r"""
extern "C" __global__ void dot(const double *a, const double *b, double *partial, long n) {
  __shared__ double tile[1024];
  double sum = 0.0;
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n;
       i += (long)blockDim.x * gridDim.x)
    sum += a[i] * b[i];
  tile[threadIdx.x] = sum;
  for (int off = blockDim.x / 2; off > 0; off /= 2) {
    __syncthreads();
    if (threadIdx.x < off) tile[threadIdx.x] += tile[threadIdx.x + off];
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = tile[0];
}
"""


def timed(fn, reps: int = 10, batches: int = 5) -> float:
    """Median over batches of the mean time per call, in milliseconds."""
    fn()
    cp.cuda.Device().synchronize()
    times = []
    for _ in range(batches):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(reps):
            fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / reps)
    return sorted(times)[len(times) // 2]


def report(name: str, ms: float) -> None:
    print(f"ref {name} {ms:.6f}", flush=True)


def stream(log2n: int) -> None:
    n = 1 << log2n
    a, b, c = (cp.full(n, v, dtype=cp.float64) for v in (0.1, 0.2, 0.0))
    s = 0.4
    copy = cp.ElementwiseKernel("float64 a", "float64 c", "c = a", "copy_k")
    mul = cp.ElementwiseKernel("float64 c, float64 s", "float64 b", "b = s * c", "mul_k")
    add = cp.ElementwiseKernel("float64 a, float64 b", "float64 c", "c = a + b", "add_k")
    triad = cp.ElementwiseKernel("float64 b, float64 c, float64 s", "float64 a",
                                 "a = b + s * c", "triad_k")
    report("copy", timed(lambda: copy(a, c)))
    report("mul", timed(lambda: mul(c, s, b)))
    report("add", timed(lambda: add(a, b, c)))
    report("triad", timed(lambda: triad(b, c, s, a)))
    dot = cp.RawKernel(DOT, "dot")
    blocks = 4 * cp.cuda.Device().attributes["MultiProcessorCount"]
    partial = cp.empty(blocks, dtype=cp.float64)
    report("dot", timed(lambda: (dot((blocks,), (1024,), (a, b, partial, cp.int64(n))),
                                 float(partial.sum()))))


def stencils(n2: int, nl: int, n3: int) -> None:
    s2d = cp.RawKernel(STENCIL_2D, "s2d")
    for name, n in (("s2d", n2), ("slin", nl)):
        a = cp.random.rand(n * n)
        b = cp.empty_like(a)
        report(name, timed(lambda: s2d(((n + 31) // 32, (n + 7) // 8), (32, 8),
                                       (a, b, cp.int32(n)))))
    s3d = cp.RawKernel(STENCIL_3D, "s3d")
    a = cp.random.rand(n3 ** 3)
    b = cp.empty_like(a)
    report("s3d", timed(lambda: s3d(((n3 + 31) // 32, (n3 + 7) // 8, n3), (32, 8, 1),
                                    (a, b, cp.int32(n3)))))


def gemm(n: int) -> None:
    for name, dtype in (("sgemm", cp.float32), ("dgemm", cp.float64)):
        a = cp.random.rand(n, n).astype(dtype)
        b = cp.random.rand(n, n).astype(dtype)
        c = cp.empty((n, n), dtype=dtype)
        report(name, timed(lambda: cp.matmul(a, b, out=c), reps=5, batches=3))


if __name__ == "__main__":
    args = dict(arg.split("=") for arg in sys.argv[1:])
    stream(int(args.get("stream", 25)))
    stencils(int(args.get("n2d", 8192)), int(args.get("nlin", 4096)), int(args.get("n3d", 512)))
    gemm(int(args.get("gemm", 4096)))
