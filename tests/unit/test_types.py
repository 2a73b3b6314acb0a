"""Type inference: numpy-like promotion with weak Python literals, fixed point, errors."""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p
import pytest
from pymbolic import parse

import translator
from translator.diagnostics import KernelLanguageError
from translator.ir.parse import GlobalArg, ValueArg
from translator.ir.types import expression_dtype, infer_unknown_types

F32, F64, I32, I64 = (np.dtype(t) for t in (np.float32, np.float64, np.int32, np.int64))


@pytest.fixture
def knl():
    return translator.make_kernel(
        "{[i]: 0<=i<n}", "out[i] = x[i] + k[i] + d[i] + l[i]",
        [GlobalArg("x", np.float32, shape="n"), GlobalArg("k", np.int32, shape="n"),
         GlobalArg("d", np.float64, shape="n"), GlobalArg("l", np.int64, shape="n"), "..."])


@pytest.mark.parametrize("text, dtype", [
    ("x[i] * 2", F32), ("x[i] * 0.5", F32), ("k[i] * 0.5", F64), ("k[i] + 1", I32),
    ("d[i] + 1", F64), ("x[i] + k[i]", F64), ("k[i] + l[i]", I64), ("2 * 3", I32),
    ("0.5", F64), ("x[i] < 1", np.dtype(np.bool_)), ("sqrt(k[i])", F64), ("sqrt(x[i])", F32),
    ("abs(k[i])", I32), ("max(k[i], 3)", I32), ("floor(k[i])", I32), ("k[i] / 2", I32),
    ("k[i] // 2", I32), ("if(x[i] > 0, k[i], 1)", I32), ("if(x[i] > 0, x[i], 1.0)", F32),
    ("sum(i, x[i])", F32), ("i", I32), ("cast(float32, d[i])", F32), ("x[i] + float64(1)", F64),
])
def test_expression_types(knl, text, dtype):
    from translator.ir.parse_expr import parse_expression
    assert expression_dtype(knl, parse_expression(text)) == dtype


def test_numpy_scalars_keep_their_type(knl):
    assert expression_dtype(knl, p.Sum((parse("k[i]"), np.int64(1)))) == I64
    assert expression_dtype(knl, p.Product((parse("x[i]"), np.float64(1)))) == F64


def test_outputs_and_temporaries_get_the_assigned_type(knl):
    out = infer_unknown_types(knl, expect_completion=True)
    assert out.arg("out").dtype == F64
    assert out.arg("n").dtype == I32


def test_fixed_point_through_self_update():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["<> acc = 0 {id=init}", "acc = acc + x[i] {id=upd, dep=init}",
                          "<> t = acc * 2 {dep=upd}", "out[0] = t"],
        [GlobalArg("x", np.float32, shape="n"), "..."])
    out = infer_unknown_types(knl, expect_completion=True)
    assert out.temporaries["acc"].dtype == F32
    assert out.temporaries["t"].dtype == F32
    assert out.arg("out").dtype == F32


def test_lone_literals_default_to_int32_and_float64():
    knl = translator.make_kernel("{[i]: 0<=i<n}", ["a[i] = 1", "b[i] = 2.5"])
    out = infer_unknown_types(knl)
    assert out.arg("a").dtype == I32 and out.arg("b").dtype == F64


def test_unknown_types_are_named():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = s * x[i]",
                                 [ValueArg("s"), "..."])
    with pytest.raises(KernelLanguageError, match=r"cannot determine the type of 'out', 's', 'x'"):
        infer_unknown_types(knl, expect_completion=True)
    partial = infer_unknown_types(knl)
    assert partial.arg("n").dtype == I32 and partial.arg("s").dtype is None
