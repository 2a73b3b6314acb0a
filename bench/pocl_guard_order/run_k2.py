"""Run one covariance-shaped kernel on the first OpenCL CPU device and compare with numpy.

usage: run_k2.py FILE.cl [KERNEL] [build options...]
PLATFORM (environment) picks the OpenCL platform by a part of its name (default PoCL).
The kernel takes (data, cov, m, n, fn) as the translator's covariance_k2 does; m = 40, n = 50,
one 16x16 work group.  Prints the number of wrong cov elements (0 = right).
"""
import os
import sys

import numpy as np
import pyopencl as cl

M, N = 40, 50


def expected(data: np.ndarray) -> np.ndarray:
    cov = np.zeros((M, M))
    for i in range(M):
        for j in range(i, M):
            cov[i, j] = np.dot(data[:, i], data[:, j]) / (N - 1.0)
            cov[j, i] = cov[i, j]
    return cov


def main() -> int:
    path = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "covariance_k2"
    options = sys.argv[3:]
    i, j = np.meshgrid(np.arange(N), np.arange(M), indexing="ij")
    data = ((i * j % 7) + 0.5 * i) / M
    data = data - data.mean(axis=0)
    want_platform = os.environ.get("PLATFORM", "Portable Computing Language")
    ctx = cl.Context([d for p in cl.get_platforms() if want_platform in p.name
                      for d in p.get_devices()][:1])
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, open(path).read()).build(options=options)
    mf = cl.mem_flags
    d_data = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.ascontiguousarray(data))
    cov = np.full((M, M), 0.0)
    d_cov = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=cov)
    kernel = getattr(prog, name)
    kernel(queue, (16, 16), (16, 16), d_data, d_cov, np.int32(M), np.int32(N), np.float64(N))
    cl.enqueue_copy(queue, cov, d_cov)
    queue.finish()
    want = expected(data)
    bad = ~np.isclose(cov, want, rtol=1e-12, atol=1e-15)
    twice = np.isclose(cov, want / (N - 1.0), rtol=1e-12, atol=1e-15) & bad
    print(f"{path}: {int(bad.sum())} wrong of {M * M} ({int(twice.sum())} divided twice)")
    return 1 if bad.any() else 0


if __name__ == "__main__":
    sys.exit(main())
