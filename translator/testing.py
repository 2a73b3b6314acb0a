"""Differential testing: run a transformed kernel against a reference on random inputs."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pyopencl as cl

from translator.codegen.result import KernelParam
from translator.diagnostics import TranslatorError
from translator.execution import compile as compile_kernel
from translator.execution import evaluate
from translator.ir.kernel import Kernel


def random_inputs(params: tuple[KernelParam, ...], parameters: Mapping[str, int | float], *,
                  seed: int = 0) -> dict[str, np.ndarray | int | float]:
    """Random values for every input of a kernel: floats in [-1, 1), small integers in
    [-4, 4] (non-negative [0, 8) for unsigned types); value arguments from `parameters`
    (float value arguments missing there are random too)."""
    rng = np.random.default_rng(seed)
    out: dict[str, np.ndarray | int | float] = dict(parameters)
    for prm in params:
        if prm.name in out:
            continue
        if prm.kind == "value":
            if prm.dtype.kind != "f":
                raise TranslatorError(f"auto_test_vs_ref: give a value for {prm.name!r} in "
                                      "parameters")
            out[prm.name] = float(rng.uniform(-1, 1))
        elif prm.is_input:
            shape = tuple(evaluate(e, out) for e in prm.shape)
            out[prm.name] = _random_array(rng, shape, prm.dtype)
    return out


def _random_array(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    if dtype.kind == "f":
        return rng.uniform(-1, 1, size=shape).astype(dtype)
    if dtype.kind == "c":
        return (rng.uniform(-1, 1, size=shape) + 1j * rng.uniform(-1, 1, size=shape)).astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dtype)
    low = 0 if dtype.kind == "u" else -4
    return rng.integers(low, 5, size=shape).astype(dtype)


def compare_outputs(ref: Mapping[str, np.ndarray], test: Mapping[str, np.ndarray], *,
                    rtol: float) -> None:
    """Raise AssertionError naming the first output that differs, with its max error and the
    first mismatching index."""
    missing = sorted(set(ref) - set(test))
    if missing:
        raise AssertionError(f"test kernel does not produce output(s) {', '.join(missing)}")
    for name in sorted(ref):
        a = np.asarray(ref[name])
        b = np.asarray(test[name])
        if a.shape != b.shape:
            raise AssertionError(f"output {name!r}: shape {b.shape}, reference {a.shape}")
        scale = float(np.max(np.abs(a))) if a.size else 0.0
        err = np.abs(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
                     - b.astype(np.complex128 if b.dtype.kind == "c" else np.float64))
        bad = ~(err <= rtol * np.maximum(np.abs(a), scale) + 1e-300)
        if a.dtype.kind in "iub":
            bad = a != b
        if np.any(bad):
            first = tuple(int(k) for k in np.argwhere(bad)[0])
            raise AssertionError(
                f"output {name!r} differs: max abs error {float(np.max(err)):.6g} "
                f"(rtol {rtol:g}, scale {scale:.6g}); first mismatch at index {first}: "
                f"test {b[first]!r}, reference {a[first]!r}")


def auto_test_vs_ref(ref_knl: Kernel, ctx, test_knl: Kernel | None = None, *,
                     parameters: Mapping[str, int | float] | None = None, rtol: float = 1e-6,
                     seed: int = 0) -> dict[str, np.ndarray]:
    """Run `ref_knl` and `test_knl` (default: `ref_knl` itself) on the same random inputs on
    `ctx` and compare every output of the reference (`parameters`: the value arguments, none
    by default).  Returns the test kernel's outputs."""
    test_knl = ref_knl if test_knl is None else test_knl
    queue = cl.CommandQueue(ctx)
    ref_run = compile_kernel(ref_knl, ctx)
    test_run = compile_kernel(test_knl, ctx)
    inputs = random_inputs(ref_run.code.params, parameters or {}, seed=seed)
    ref_out = ref_run(queue, **_copies(inputs, ref_run.code.params))
    test_out = test_run(queue, **_copies(inputs, test_run.code.params))
    queue.finish()
    compare_outputs(ref_out, test_out, rtol=rtol)
    return test_out


def _copies(inputs: Mapping, params: tuple[KernelParam, ...]) -> dict:
    names = {prm.name for prm in params}
    return {k: (np.array(v) if isinstance(v, np.ndarray) else v)
            for k, v in inputs.items() if k in names}
