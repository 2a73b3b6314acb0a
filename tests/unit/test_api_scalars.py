"""The Python API treats untyped scalars like untyped arrays: `generate_code` gives both
float64 (integers used as bounds or subscripts stay int32), `compile` specialises on the numpy
scalars and arrays it is called with."""

from __future__ import annotations

import numpy as np

import translator

SAXPY = ("{[i]: 0<=i<n}", "y[i] = a*x[i] + y[i]")


def _signature(code) -> dict[str, np.dtype]:
    return {prm.name: prm.dtype for prm in code.params}


def test_generate_code_defaults_an_untyped_scalar_like_the_arrays():
    code = translator.generate_code(translator.make_kernel(*SAXPY))
    assert _signature(code) == {"y": np.float64, "x": np.float64, "a": np.float64,
                                "n": np.int32}
    assert "double const a" in code.device_code


def test_scalars_used_as_integers_stay_int32():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = s * x[k + i]",
                                 [translator.ValueArg("k"), translator.ValueArg("s"), "..."])
    sig = _signature(translator.generate_code(knl))
    assert sig["k"] == np.int32 and sig["n"] == np.int32 and sig["s"] == np.float64


def test_compile_with_a_python_float(ctx, queue):
    x, y = np.linspace(0, 1, 37), np.linspace(2, 3, 37)
    out = translator.compile(translator.make_kernel(*SAXPY), ctx)(queue, a=0.5, x=x, y=y)
    np.testing.assert_array_equal(out["y"], 0.5 * x + y)


def test_compile_specialises_on_numpy_scalars(ctx, queue):
    x = np.linspace(0, 1, 37, dtype=np.float32)
    y = np.linspace(2, 3, 37, dtype=np.float32)
    run = translator.compile(translator.make_kernel(*SAXPY), ctx)
    out = run(queue, a=np.float32(1 / 3), x=x, y=y)
    assert out["y"].dtype == np.float32
    np.testing.assert_array_equal(out["y"], np.float32(1 / 3) * x + y)
    (variant,) = run.variants.values()
    assert _signature(variant)["a"] == np.float32
