"""to_batched: a kernel doing `nbatches` independent copies of its work."""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p
import pytest

import transforms
import translator
from tests.unit.transforms.builders import ValueArg, arr, knl, text
from translator.diagnostics import TransformError
from translator.ir.data import AddressSpace, ArrayArg
from translator.ir.parse import TemporaryVariable
from translator.ir.tags import ForceSequentialTag
from translator.testing import compare_outputs


def axpy():
    return knl("{[i]: 0<=i<n}", "out[i] = alpha*x[i] + y[i]", arr("x", "n"), arr("y", "n"),
               ValueArg("alpha", np.float32), ValueArg("n", np.int32))


def reversal():
    """Each group reverses 8 values through a local temporary."""
    k = knl("{[g, l, ll]: 0<=g<2 and 0<=l,ll<8}", """
        t[l] = x[8*g + l]           {id=w}
        out[8*g + ll] = t[7 - ll]   {id=r, dep=w}
        """, arr("x", "16"), TemporaryVariable("t", np.float32, shape=(8,),
                                               address_space="local"))
    return transforms.tag_inames(k, "g:g.0")


def run(kernel, ctx, **kwargs):
    import pyopencl as cl
    return translator.compile(kernel, ctx)(cl.CommandQueue(ctx), **kwargs)


def compare_batches(ref, batched, ctx, nb, batch_inputs, shared_inputs):
    """Run `batched` once and `ref` once per batch; the outputs must agree."""
    out = run(batched, ctx, **batch_inputs, **shared_inputs)
    for b in range(nb):
        one = run(ref, ctx, **{k: v[b] for k, v in batch_inputs.items()}, **shared_inputs)
        compare_outputs(one, {k: v[b] for k, v in out.items()}, rtol=1e-6)


def test_to_batched_structure():
    k = axpy()
    out = transforms.to_batched(k, "nb", "x, out, alpha")
    assert out.all_inames == {"ibatch", "i"}
    assert out.arg_names == ("x", "y", "alpha", "n", "out", "nb")
    alpha = out.arg("alpha")
    assert isinstance(alpha, ArrayArg) and alpha.dtype == np.float32
    assert alpha.shape == (p.Variable("nb"),)
    assert out.arg("x").shape == (p.Variable("nb"), p.Variable("n"))
    assert out.arg("nb").dtype == np.int32
    assert "out[ibatch, i] = alpha[ibatch]*x[ibatch, i] + y[i]" in text(out)
    assert all(s.within_inames == {"ibatch", "i"} for s in out.statements)


def test_to_batched_runs(ctx):
    k = axpy()
    out = transforms.to_batched(k, "nb", ["x", "out", "alpha"])
    rng = np.random.default_rng(3)
    x = rng.uniform(-1, 1, (3, 5)).astype(np.float32)
    alpha = rng.uniform(-1, 1, 3).astype(np.float32)
    y = rng.uniform(-1, 1, 5).astype(np.float32)
    compare_batches(k, out, ctx, 3, {"x": x, "alpha": alpha}, {"y": y, "n": 5})


@pytest.mark.parametrize("sequential", [False, True])
def test_to_batched_local_temporaries(ctx, sequential):
    k = reversal()
    out = transforms.apply_call(k, "to_batched", (2, "x, out"), {"sequential": sequential})
    t = out.temporaries["t"]
    assert t.shape == ((8,) if sequential else (2, 8))
    assert out.tags_of("ibatch") == ({ForceSequentialTag()} if sequential else frozenset())
    x = np.random.default_rng(4).uniform(-1, 1, (2, 16)).astype(np.float32)
    compare_batches(k, out, ctx, 2, {"x": x}, {})


def test_to_batched_keeps_private_temporaries_and_names_the_iname():
    k = knl("{[i]: 0<=i<n}", "<float32> s = 2*x[i] {id=w}\nout[i] = s {id=r, dep=w}",
            arr("x", "n"))
    out = transforms.to_batched(k, 4, "x, out", batch_iname_prefix="b")
    assert out.temporaries["s"].shape == () and out.all_inames == {"b", "i"}
    assert "out[b, i] = s" in text(out)
    local = transforms.set_temporary_address_space(k, "s", "local")
    assert transforms.to_batched(local, 4, "x, out").temporaries["s"].shape == (4,)
    assert transforms.to_batched(local, 4, "x, out").temporaries[
        "s"].address_space is AddressSpace.LOCAL


def test_to_batched_count_from_an_existing_argument():
    out = transforms.to_batched(axpy(), "n", "x")
    assert out.arg_names.count("n") == 1 and out.arg("x").shape[0] == p.Variable("n")
    with pytest.raises(TransformError, match="argument 'alpha' is not an integer value"):
        transforms.to_batched(axpy(), "alpha", "x")


@pytest.mark.parametrize("args, message", [
    ((-1, "x"), "nbatches must not be negative, got -1"),
    (("3b", "x"), "nbatches must be an integer or an argument name, got '3b'"),
    (("i", "x"), "nbatches 'i' is already used in kernel"),
    (("nb", "z"), "'z' is not an argument or temporary of kernel 'kernel'"),
    (("nb", "n"), "'n' is a loop bound \\(a domain parameter\\); it cannot vary per batch"),
])
def test_to_batched_errors(args, message):
    with pytest.raises(TransformError, match=message):
        transforms.to_batched(axpy(), *args)


def test_to_batched_error_fixed_strides():
    k = transforms.tag_array_axes(axpy(), "x", "stride:2")
    with pytest.raises(TransformError, match="'x' has fixed-stride or sep/vec axes"):
        transforms.to_batched(k, 2, "x")
    sized = knl("{[i]: 0<=i<4}", "out[i] = x[i] + m", arr("x", "m"), ValueArg("m", np.int32))
    with pytest.raises(TransformError, match="'m' sizes an array; it cannot vary per batch"):
        transforms.to_batched(sized, 2, "m")
    with pytest.raises(TransformError, match="batch_iname_prefix must be an identifier"):
        transforms.to_batched(axpy(), 2, "y", batch_iname_prefix="a b")


def test_to_batched_error_temporary_needs_a_constant_count():
    with pytest.raises(TransformError, match="temporary 't' would need one copy per batch, but "
                                             "nbatches 'nb' is not a constant"):
        transforms.to_batched(reversal(), "nb", "x, out")
    assert transforms.to_batched(reversal(), "nb", "x, out", sequential=True).temporaries[
        "t"].shape == (8,)
