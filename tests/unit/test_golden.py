"""Golden device code for representative kernels, each also run on PoCL against numpy.

Regenerate the golden files with ``TRANSLATOR_UPDATE_GOLDEN=1 pytest tests/unit/test_golden.py``.
Sizes are deliberately not multiples of the tiles, so guards are exercised.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import numpy as np
import pytest

import transforms
import translator
from translator.codegen.opencl import generate_code
from translator.ir.parse import GlobalArg

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def check_golden(name: str, text: str) -> None:
    """Compare `text` with tests/golden/<name>.cl; show a unified diff on mismatch."""
    path = GOLDEN / f"{name}.cl"
    if os.environ.get("TRANSLATOR_UPDATE_GOLDEN") == "1":
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; run with TRANSLATOR_UPDATE_GOLDEN=1 to create it")
    expected = path.read_text()
    if text != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            f"golden/{name}.cl", "generated"))
        pytest.fail(f"device code of {name} differs from the golden file:\n{diff}")


# ---------------------------------------------------------------------------------------------
# the kernels: (kernel, parameters, inputs -> expected outputs, rtol)

def saxpy():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", "y[i] = a*x[i] + y[i]",
        [GlobalArg("x", np.float32, shape="n"), GlobalArg("y", np.float32, shape="n"),
         translator.ValueArg(name="a", dtype=np.float32), "..."], name="saxpy")
    knl = transforms.split_iname(knl, "i", 128, outer_tag="g.0", inner_tag="l.0")
    return knl, {"n": 300, "a": 1.5}, lambda v: {"y": v["a"] * v["x"] + v["y"]}, 1e-6


def stencil():
    knl = translator.make_kernel(
        "{[i,j]: 1<=i<n-1 and 1<=j<n-1}",
        "out[i,j] = u[i-1,j] + u[i+1,j] + u[i,j-1] + u[i,j+1] - 4*u[i,j]",
        [GlobalArg("u", np.float32, shape="n,n"), GlobalArg("out", np.float32, shape="n,n"),
         "..."], name="stencil")
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.1", inner_tag="l.1")
    knl = transforms.split_iname(knl, "j", 16, outer_tag="g.0", inner_tag="l.0")

    def ref(v):
        u = v["u"]
        out = np.zeros_like(u)
        out[1:-1, 1:-1] = (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:]
                           - 4 * u[1:-1, 1:-1])
        return {"out": out}
    return knl, {"n": 37}, ref, 1e-5


def matmul():
    knl = translator.make_kernel(
        "{[i,j,k]: 0<=i<n and 0<=j<m and 0<=k<l}", "c[i,j] = sum(k, a[i,k]*b[k,j])",
        [GlobalArg("a", np.float32, shape="n,l"), GlobalArg("b", np.float32, shape="l,m"),
         GlobalArg("c", np.float32, shape="n,m"), "..."], name="matmul")
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.1", inner_tag="l.1")
    knl = transforms.split_iname(knl, "j", 16, outer_tag="g.0", inner_tag="l.0")
    return knl, {"n": 37, "m": 29, "l": 23}, lambda v: {"c": v["a"] @ v["b"]}, 1e-5


def triangle():
    knl = translator.make_kernel(
        "{[i,j]: 0<=i<n and 0<=j<=i}", "out[i,j] = 2*a[i,j] + j",
        [GlobalArg("a", np.float64, shape="n,n"), GlobalArg("out", np.float64, shape="n,n"),
         "..."], name="triangle")
    knl = transforms.tag_inames(knl, "i:g.0")

    def ref(v):
        a = v["a"]
        out = np.tril(2 * a + np.arange(a.shape[1])[None, :])
        return {"out": out}
    return knl, {"n": 37}, ref, 1e-12


def private_if():
    knl = translator.make_kernel(
        "{[i,k]: 0<=i<n and 0<=k<4}",
        ["<float32> t[k] = a[i] * cast(float32, k + 1) {id=fill}",
         "out[i] = if(a[i] > 0, t[0] + t[3], t[1] - t[2]) {dep=fill}"],
        [GlobalArg("a", np.float32, shape="n"), GlobalArg("out", np.float32, shape="n"), "..."],
        name="private_if")
    knl = transforms.split_iname(knl, "i", 32, outer_tag="g.0", inner_tag="l.0")

    def ref(v):
        a = v["a"]
        return {"out": np.where(a > 0, a * 1 + a * 4, a * 2 - a * 3).astype(np.float32)}
    return knl, {"n": 37}, ref, 1e-6


KERNELS = {f.__name__: f for f in (saxpy, stencil, matmul, triangle, private_if)}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_golden_device_code(name):
    knl = KERNELS[name]()[0]
    check_golden(name, generate_code(knl).device_code)


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_golden_kernel_runs(name, ctx, queue):
    knl, params, ref, rtol = KERNELS[name]()
    run = translator.compile(knl, ctx)
    rng = np.random.default_rng(1)
    inputs = dict(params)
    for prm in run.code.params:
        if prm.kind == "array" and prm.is_input:
            shape = tuple(int(translator.execution.evaluate(e, params)) for e in prm.shape)
            inputs[prm.name] = rng.uniform(-1, 1, size=shape).astype(prm.dtype)
    expected = ref({k: np.array(v) if isinstance(v, np.ndarray) else v
                    for k, v in inputs.items()})
    got = run(queue, **inputs)
    for out_name, want in expected.items():
        np.testing.assert_allclose(got[out_name], want, rtol=rtol, atol=rtol)


def test_generation_is_deterministic():
    import subprocess
    import sys
    script = ("import sys; sys.path.insert(0, '.'); from tests.unit.test_golden import KERNELS; "
              "from translator.codegen.opencl import generate_code; "
              "print(''.join(generate_code(f()[0]).device_code for f in KERNELS.values()))")
    outs = set()
    for seed in ("0", "1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        res = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, cwd=Path(__file__).resolve().parents[2], check=True)
        outs.add(res.stdout)
    assert len(outs) == 1
