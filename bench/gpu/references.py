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


HEAT_3D = r"""
extern "C" __global__ void heat3d(const double *a, double *b, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z;
  if (i < 1 || j < 1 || k < 1 || i >= n - 1 || j >= n - 1 || k >= n - 1) return;
  long s = (long)n * n, c = i * s + (long)j * n + k;
  b[c] = 0.125 * (a[c + s] - 2.0 * a[c] + a[c - s]) + 0.125 * (a[c + n] - 2.0 * a[c] + a[c - n])
         + 0.125 * (a[c + 1] - 2.0 * a[c] + a[c - 1]) + a[c];
}
"""
FDTD_2D = r"""
extern "C" __global__ void fdtd_e(const double *fict, double *ex, double *ey, const double *hz,
                                  int n, int t) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  long c = (long)i * n + j;
  ey[c] = i == 0 ? fict[t] : ey[c] - 0.5 * (hz[c] - hz[c - n]);
  if (j >= 1) ex[c] = ex[c] - 0.5 * (hz[c] - hz[c - 1]);
}
extern "C" __global__ void fdtd_h(const double *ex, const double *ey, double *hz, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n - 1 || j >= n - 1) return;
  long c = (long)i * n + j;
  hz[c] = hz[c] - 0.7 * (ex[c + 1] - ex[c] + ey[c + n] - ey[c]);
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


def _cublas_gemm_works() -> bool:
    """Whether cupy.cublas.gemm exists here and computes alpha*A*B + beta*C on C-order arrays."""
    try:
        x, y, z = (cp.random.rand(5, 5) for _ in range(3))
        want = 1.5 * (x @ y) + 1.2 * z
        cp.cublas.gemm("N", "N", x, y, out=z, alpha=1.5, beta=1.2)
        return bool(cp.allclose(z, want))
    except Exception:   # noqa: BLE001 - any failure means: use the two-call fallback
        return False


def dense_pb(n: int, alpha: float = 1.5, beta: float = 1.2) -> None:
    """gemm, 2mm, 3mm, syrk, syr2k of polybench.c through cuBLAS: C = alpha*A*B + beta*C as one
    cuBLAS gemm call where this CuPy has cupy.cublas.gemm, else cupy.matmul and one fused
    elementwise; syrk through cupy.cublas.syrk where it works, syr2k as two gemms."""
    a, b, c, d = (cp.random.rand(n, n) for _ in range(4))
    tmp = cp.empty((n, n))
    scale = cp.ElementwiseKernel("float64 t, float64 alpha, float64 beta", "float64 c",
                                 "c = alpha * t + beta * c", "scale_add")

    one_call = _cublas_gemm_works()

    def gemm_into(x, y, out, al: float, be: float) -> None:
        if one_call:
            cp.cublas.gemm("N", "N", x, y, out=out, alpha=al, beta=be)
        else:
            cp.matmul(x, y, out=tmp)
            scale(tmp, al, be, out)
    print(f"ref-note gemm_pb/twomm through {'cupy.cublas.gemm' if one_call else 'matmul'}")
    report("gemm_pb", timed(lambda: gemm_into(a, b, c, alpha, beta), reps=5, batches=3))
    report("twomm", timed(lambda: (gemm_into(a, b, tmp, alpha, 0.0),
                                   gemm_into(tmp, c, d, 1.0, beta)), reps=5, batches=3))
    e, f, g = (cp.empty((n, n)) for _ in range(3))
    report("threemm", timed(lambda: (cp.matmul(a, b, out=e), cp.matmul(c, d, out=f),
                                     cp.matmul(e, f, out=g)), reps=5, batches=3))
    syrk = _cublas_syrk()
    print("ref-note syrk through " + ("cupy.cublas.syrk (lower triangle)" if syrk else
                                      "gemm of the full product (twice syrk's work)"))
    if syrk:
        report("syrk", timed(lambda: syrk(a, c, alpha, beta), reps=5, batches=3))
    else:
        report("syrk", timed(lambda: gemm_into(a, a.T, c, alpha, beta), reps=5, batches=3))
    print("ref-note syr2k through two gemms of the full products (twice syr2k's work)")
    report("syr2k", timed(lambda: (gemm_into(a, b.T, c, alpha, beta),
                                   gemm_into(b, a.T, c, alpha, 1.0)), reps=5, batches=3))


def _cublas_syrk():
    """cupy.cublas.syrk as f(a, c, alpha, beta): the lower triangle of alpha*a*a^T + beta*c,
    if this CuPy has it and one of the two ways of calling it computes that; else None."""
    calls = (lambda a, c, al, be: cp.cublas.syrk("N", a, out=c, alpha=al, beta=be, lower=True),
             # C order seen as cuBLAS's column-major transpose
             lambda a, c, al, be: cp.cublas.syrk("T", a.T, out=c.T, alpha=al, beta=be,
                                                 lower=False))
    for call in calls:
        try:
            x, z = cp.random.rand(5, 5), cp.random.rand(5, 5)
            want = cp.tril(1.5 * (x @ x.T) + 1.2 * z)
            call(x, z, 1.5, 1.2)
            if bool(cp.allclose(cp.tril(z), want)):
                return call
        except Exception:   # noqa: BLE001 - any failure means: try the next, or gemm
            continue
    return None


def matvec_pb(n: int) -> None:
    """atax, bicg, mvt, gemver, gesummv of polybench.c through cuBLAS gemv (cupy.dot with a
    matrix)."""
    a = cp.random.rand(n, n)
    x, y, tmp, r, p, s, q, x1, x2 = (cp.random.rand(n) for _ in range(9))
    report("atax", timed(lambda: (cp.dot(a, x, out=tmp), cp.dot(a.T, tmp, out=y))))
    report("bicg", timed(lambda: (cp.dot(a.T, r, out=s), cp.dot(a, p, out=q))))
    report("mvt", timed(lambda: (cp.add(x1, cp.dot(a, y, out=tmp), out=x1),
                                 cp.add(x2, cp.dot(a.T, r, out=s), out=x2))))
    ger2 = cp.ElementwiseKernel(
        "raw float64 u1, raw float64 v1, raw float64 u2, raw float64 v2, int64 n", "float64 a",
        "a += u1[i / n] * v1[i % n] + u2[i / n] * v2[i % n]", "ger2")
    axpy = cp.ElementwiseKernel("float64 t, float64 z, float64 alpha", "float64 x",
                                "x += alpha * t + z", "axpy_z")
    b, t2 = cp.random.rand(n, n), cp.empty(n)

    def gemver() -> None:
        ger2(x1, x2, r, p, n, a)
        cp.dot(a.T, y, out=tmp)
        axpy(tmp, s, 1.2, x)
        cp.dot(a, x, out=tmp)
        axpy(tmp, 0.0, 1.5, q)
    print("ref-note gemver: one elementwise rank-2 update (as cuBLAS ger) and two cuBLAS gemv")
    report("gemver", timed(gemver))
    report("gesummv", timed(lambda: (cp.dot(a, x, out=tmp), cp.dot(b, x, out=t2),
                                     cp.add(1.5 * tmp, 1.2 * t2, out=y))))


def stencils_pb(n2: int, t2: int, n3: int, t3: int) -> None:
    """jacobi-2d, fdtd-2d (n2 x n2, t2 steps) and heat-3d (n3^3, t3 steps) as hand-written CUDA
    kernels, the time loop on the host; one timed call runs every step, as one region call."""
    jac = cp.RawKernel(STENCIL_2D, "s2d")
    grid2, block2 = ((n2 + 31) // 32, (n2 + 7) // 8), (32, 8)
    a, b = cp.random.rand(n2 * n2), cp.random.rand(n2 * n2)

    def jacobi() -> None:
        for _ in range(t2):
            jac(grid2, block2, (a, b, cp.int32(n2)))
            jac(grid2, block2, (b, a, cp.int32(n2)))
    report("jacobi2d", timed(jacobi, reps=3, batches=3))
    mod = cp.RawModule(code=FDTD_2D)
    fe, fh = mod.get_function("fdtd_e"), mod.get_function("fdtd_h")
    ex, ey, hz = (cp.random.rand(n2 * n2) for _ in range(3))
    fict = cp.random.rand(max(t2, 1))

    def fdtd() -> None:
        for t in range(t2):
            fe(grid2, block2, (fict, ex, ey, hz, cp.int32(n2), cp.int32(t)))
            fh(grid2, block2, (ex, ey, hz, cp.int32(n2)))
    report("fdtd2d", timed(fdtd, reps=3, batches=3))
    heat = cp.RawKernel(HEAT_3D, "heat3d")
    grid3, block3 = ((n3 + 31) // 32, (n3 + 7) // 8, n3), (32, 8, 1)
    u, v = cp.random.rand(n3 ** 3), cp.random.rand(n3 ** 3)

    def heat3d() -> None:
        for _ in range(t3):
            heat(grid3, block3, (u, v, cp.int32(n3)))
            heat(grid3, block3, (v, u, cp.int32(n3)))
    report("heat3d", timed(heat3d, reps=3, batches=3))


def transfers(bytes_in: int, bytes_out: int) -> None:
    """CUDA copies from and to pinned host memory of the bytes a data region moves in
    (``xfer_in``) and out (``xfer_out``): what the link gives a program that pins its arrays."""
    import cupyx
    for name, count, to_device in (("xfer_in", bytes_in, True), ("xfer_out", bytes_out, False)):
        if count <= 0:
            continue
        host = cupyx.empty_pinned((count // 8,), dtype=cp.float64)
        host[:] = 1.0
        dev = cp.ones(count // 8)
        copy = (lambda h=host, d=dev: d.set(h)) if to_device else \
            (lambda h=host, d=dev: d.get(out=h))
        report(name, timed(copy, reps=3, batches=3))
        print(f"ref-note {name} {count} bytes (pinned host memory, cupy)")


#: sections run by default; `only=stencils,polybench` picks some
SECTIONS = ("stream", "stencils", "gemm", "polybench")


if __name__ == "__main__":
    args = dict(arg.split("=") for arg in sys.argv[1:])
    only = args.get("only", ",".join(SECTIONS)).split(",")
    if "stream" in only:
        stream(int(args.get("stream", 25)))
    if "stencils" in only:
        stencils(int(args.get("n2d", 8192)), int(args.get("nlin", 4096)),
                 int(args.get("n3d", 512)))
    if "gemm" in only:
        gemm(int(args.get("gemm", 4096)))
    if "xfer_in" in args:     # run.sh passes the bytes of heat_data's data region
        transfers(int(args["xfer_in"]), int(args.get("xfer_out", 0)))
    if "polybench" in only:   # sizes: polybench.c's defaults
        dense_pb(int(args.get("pb_mm", 2048)))
        matvec_pb(int(args.get("pb_mv", 16384)))
        stencils_pb(int(args.get("pb_2d", 4096)), int(args.get("pb_t2d", 10)),
                    int(args.get("pb_3d", 256)), int(args.get("pb_t3d", 10)))
