"""Batched small matrix products with the Python library: one 4x4 product written once,
turned into many by `to_batched`, mapped, run on the OpenCL device, checked against numpy.

Run: .venv/bin/python samples/python/batched_matmul.py [NBATCH]
(TRANSLATE_DEVICE-style choice: PYOPENCL_CTX, or the first device pyopencl offers.)

The steps are the ones a user takes for many small independent problems (element matrices in
finite elements, small dense blocks):

1. write the kernel for ONE 4x4 product C = A*B in the kernel language;
2. `to_batched(knl, "nb", ["a", "b", "c"])` adds a batch loop and a slowest batch axis to the
   three matrices;
3. map the batch loop onto work groups of 64 problems, and the 4x4 (i, j) loops onto ILP, so
   each work item computes one whole product;
4. run it and compare with numpy's batched matmul.
"""

from __future__ import annotations

import sys

import numpy as np
import pyopencl as cl

import transforms
import translator


def batched_matmul_kernel():
    knl = translator.make_kernel(
        "{[i, j, k]: 0 <= i, j, k < 4}",
        "c[i, j] = sum(k, a[i, k]*b[k, j])",
        [translator.GlobalArg("a", np.float64, shape=(4, 4)),
         translator.GlobalArg("b", np.float64, shape=(4, 4)),
         translator.GlobalArg("c", np.float64, shape=(4, 4)), "..."],
        name="small_matmul")
    knl = transforms.to_batched(knl, "nb", ["a", "b", "c"])
    knl = transforms.split_iname(knl, "ibatch", 64, outer_tag="g.0", inner_tag="l.0")
    return transforms.tag_inames(knl, "i:ilp, j:ilp")


def main(nbatch: int = 1000) -> int:
    knl = batched_matmul_kernel()
    print(translator.print_kernel(knl))
    ctx = cl.create_some_context(interactive=False)
    queue = cl.CommandQueue(ctx)
    rng = np.random.default_rng(0)
    a = rng.random((nbatch, 4, 4))
    b = rng.random((nbatch, 4, 4))
    c = translator.compile(knl, ctx)(queue, a=a, b=b)["c"]
    expected = a @ b   # the "original program"
    err = float(np.max(np.abs(c - expected)))
    print(f"{nbatch} products of 4x4 matrices, max abs difference from numpy: {err:.3g}")
    return 0 if err < 1e-12 else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000))
