"""Argument transforms: set_argument_order, rename_argument."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
import translator
from tests.unit.transforms.builders import ValueArg, arr, knl, text
from translator.diagnostics import TransformError
from translator.ir import isl_glue
from translator.testing import compare_outputs


def saxpy():
    return knl("{[i]: 0<=i<n}", "y[i] = alpha*x[i] + y[i]", arr("x", "n"), arr("y", "n"),
               ValueArg("alpha", np.float32), ValueArg("n", np.int32), assumptions="n >= 1")


def run(kernel, ctx, **kwargs):
    import pyopencl as cl
    queue = cl.CommandQueue(ctx)
    return translator.compile(kernel, ctx)(queue, **kwargs)


# ---------------------------------------------------------------------------------------------
# set_argument_order


def test_set_argument_order():
    k = saxpy()
    assert k.arg_names == ("x", "y", "alpha", "n")
    out = transforms.set_argument_order(k, "n, alpha, y, x")
    assert out.arg_names == ("n", "alpha", "y", "x")
    assert transforms.set_argument_order(k, ["x", "y", "alpha", "n"]) is k
    assert transforms.apply_call(k, "set_argument_order", ("alpha,n,x,y",)).arg_names == (
        "alpha", "n", "x", "y")


@pytest.mark.parametrize("order, message", [
    ("x, y", r"the order omits argument\(s\) alpha, n; every argument must be listed"),
    ("x, y, alpha, n, z", r"'z' is not an argument of kernel 'kernel'"),
    ("x, y, alpha, n, x", r"argument 'x' is listed more than once"),
    ("x, yy, alpha, n", r"'yy' is not an argument .* \(did you mean 'y'\?\)"),
])
def test_set_argument_order_errors(order, message):
    with pytest.raises(TransformError, match=message):
        transforms.set_argument_order(saxpy(), order)


# ---------------------------------------------------------------------------------------------
# rename_argument


def test_rename_array_argument(ctx):
    k = saxpy()
    out = transforms.rename_argument(k, "x", "u")
    assert out.arg_names == ("u", "y", "alpha", "n")
    assert "y[i] = alpha*u[i] + y[i]" in text(out)
    x = np.arange(5, dtype=np.float32)
    y = np.ones(5, dtype=np.float32)
    ref = run(k, ctx, x=x, y=y, alpha=2.0)
    compare_outputs(ref, run(out, ctx, u=x, y=y, alpha=2.0), rtol=0)


def test_rename_value_argument_in_domains_shapes_and_assumptions(ctx):
    k = saxpy()
    out = transforms.rename_argument(k, "n", "size")
    assert isl_glue.params_of(out.domains[0]) == ("size",)
    assert isl_glue.params_of(out.assumptions) == ("size",)
    assert str(out.arg("x").shape[0]) == "size"
    x = np.arange(4, dtype=np.float32)
    ref = run(k, ctx, x=x, y=x, alpha=3.0, n=4)
    compare_outputs(ref, run(out, ctx, x=x, y=x, alpha=3.0, size=4), rtol=0)


def test_rename_tagged_uses_and_rule_arguments():
    k = knl("{[i]: 0<=i<n}", "f(a) := 2*a\nout[i] = f(a$hot[i]) + a[i]", arr("a", "n"))
    out = transforms.rename_argument(k, "a", "b")
    assert "out[i] = f(b$hot[i]) + b[i]" in text(out)
    assert out.substitutions["f"] == k.substitutions["f"]


def test_rename_merges_with_existing_ok():
    k = knl("{[i]: 0<=i<n}", "out[i] = a[i] + b[i]", arr("a", "n"), arr("b", "n"))
    out = transforms.rename_argument(k, "a", "b", existing_ok=True)
    assert out.arg_names.count("b") == 1 and "a" not in out.arg_names
    assert "out[i] = b[i] + b[i]" in text(out)


@pytest.mark.parametrize("old, new, kw, message", [
    ("q", "r", {}, "'q' is not an argument of kernel"),
    ("x", "y", {}, "argument 'y' already exists \\(pass existing_ok=True"),
    ("x", "alpha", {"existing_ok": True}, "differ in kind, type or shape"),
    ("x", "i", {}, "'i' is already used in kernel 'kernel' \\(an iname"),
    ("x", "2x", {}, "the new name must be an identifier"),
])
def test_rename_argument_errors(old, new, kw, message):
    with pytest.raises(TransformError, match=message):
        transforms.rename_argument(saxpy(), old, new, **kw)


def test_rename_to_itself_is_no_change():
    k = saxpy()
    assert transforms.rename_argument(k, "x", "x") is k
