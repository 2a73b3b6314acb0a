"""Reference CUDA dot alone and with the partial sum (as references.py times it)."""
import cupy as cp
import sys
sys.path.insert(0, ".")
from references import DOT, timed
n = 1 << 25
a, b = cp.full(n, 0.1), cp.full(n, 0.2)
dot = cp.RawKernel(DOT, "dot")
sm = cp.cuda.Device().attributes["MultiProcessorCount"]
for mult, thr in ((4, 1024), (8, 256), (4, 256), (2, 1024)):
    blocks = mult * sm
    partial = cp.empty(blocks, dtype=cp.float64)
    k = lambda: dot((blocks,), (thr,), (a, b, partial, cp.int64(n)))
    print(f"refdot blocks={blocks} threads={thr} kernel_only {timed(k):.4f} "
          f"with_sum {timed(lambda: (k(), float(partial.sum()))):.4f}", flush=True)
