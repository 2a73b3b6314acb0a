"""bench/staging/floor_cupy.py: one region call on 16 doubles through CuPy (compare
floor_cuda.cu, floor_cl.c and bench/gpu/overhead.c): two host-to-device copies (ndarray.set),
one raw kernel launch, one device-to-host copy (ndarray.get, blocking), `calls` times; and the
launch alone.  Python's own cost is part of these numbers.  usage: floor_cupy.py [calls]"""

from __future__ import annotations

import sys
import time

import cupy as cp
import numpy as np

TINY = r"""
extern "C" __global__ void tiny(const double *x, double *y, int n, double a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""


def main(calls: int) -> None:
    kern = cp.RawKernel(TINY, "tiny")
    x, y = np.arange(16, dtype=np.float64), np.zeros(16)
    dx, dy = cp.asarray(x), cp.asarray(y)
    n, a = np.int32(16), np.float64(1.0)
    for label, copies in (("plain", True), ("launch", False)):
        kern((1,), (256,), (dx, dy, n, a))
        cp.cuda.Device().synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            if copies:
                dx.set(x)
                dy.set(y)
            kern((1,), (256,), (dx, dy, n, a))
            if copies:
                y = dy.get()
        cp.cuda.Device().synchronize()
        us = (time.perf_counter() - t0) / calls * 1e6
        print(f"floor_cupy {label} calls {calls} per_call_us {us:.3f}", flush=True)
    print(f"floor_cupy check {float(y[15])}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100000)
