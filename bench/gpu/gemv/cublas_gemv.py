"""cuBLAS gemv (cupy.dot) on an n x n C-order double matrix, both shapes of gemv.c:
"n" y = A x and "t" y = A^T x; with ``pb`` also references.py's matrix-vector section
(polybench.c's atax ... gesummv).  Prints ``ref NAME MS`` (CUDA events, median of batches)."""

from __future__ import annotations

import sys

import cupy as cp

from references import matvec_pb, report, timed

if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 16384
    a, x, y = cp.random.rand(n, n), cp.random.rand(n), cp.empty(n)
    report("gemv_n", timed(lambda: cp.dot(a, x, out=y)))
    report("gemv_t", timed(lambda: cp.dot(a.T, x, out=y)))
    print(f"ref-note matrix {8.0 * n * n / 1e9:.3f} GB per call")
    if "pb" in sys.argv[2:]:
        del a
        matvec_pb(n)
