"""The C expression printer: precedence, typed literals, host-side sizes, IR functions."""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p
import pytest
from pymbolic import parse

from translator.codegen.cexpr import CExpressionPrinter, float_literal, int_literal, to_c
from translator.diagnostics import CodegenError
from translator.ir.expr import TypeCast


@pytest.mark.parametrize("text, expected", [
    ("(n + 127) // 128", "(n + 127) / 128"),
    ("a - (b - c)", "a - (b - c)"),
    ("(a - b) - c", "a - b - c"),
    ("a / (b * c)", "a / (b * c)"),
    ("(a / b) * c", "a / b * c"),
    ("a * (b / c)", "a * (b / c)"),
    ("(a + b) * c", "(a + b) * c"),
    ("-1*n + 4", "-n + 4"),
    ("a + -3*b", "a - 3 * b"),
    ("n - 1", "n - 1"),
    ("n % 16", "n % 16"),
    ("-(a + b)", "-(a + b)"),
    ("a < b and not c", "a < b && !c"),
    ("(a or b) and c", "(a || b) && c"),
])
def test_precedence(text, expected):
    assert to_c(parse(text)) == expected


def test_host_min_max_are_conditionals():
    assert to_c(p.Min((p.Variable("n"), 128))) == "(n < 128 ? n : 128)"
    assert to_c(p.Call(p.Variable("max"), (p.Variable("n"), 0))) == "(n > 0 ? n : 0)"


def test_int_literals():
    assert int_literal(5) == "5"
    assert int_literal(2**31) == "2147483648L"
    assert int_literal(-2**63) == "(-9223372036854775807L - 1)"
    assert int_literal(7, np.dtype(np.uint32)) == "7u"
    assert int_literal(7, np.dtype(np.int64)) == "7L"
    assert int_literal(7, np.dtype(np.int8)) == "((char)7)"


def test_float_literals_round_trip_exactly():
    assert float_literal(0.1, np.dtype(np.float32)) == "0.1f"
    assert float_literal(1.0) == "1.0"
    assert float_literal(0.1) == "0.1"
    assert float_literal(1e-7, np.dtype(np.float32)) == "1e-07f"
    x = 1 / 3
    assert float(float_literal(x)) == x
    assert np.float32(float_literal(x, np.dtype(np.float32))[:-1]) == np.float32(x)
    assert float_literal(float("inf"), np.dtype(np.float32)) == "INFINITY"
    assert float_literal(float("-inf")) == "(-((double)INFINITY))"


def test_typed_numpy_constants_keep_their_type():
    assert to_c(p.Sum((p.Variable("x"), np.float32(0.5)))) == "x + 0.5f"
    assert to_c(p.Sum((p.Variable("x"), np.float64(0.5)))) == "x + 0.5"
    assert to_c(p.Sum((p.Variable("x"), np.int64(3)))) == "x + 3L"


def test_python_float_adopts_float32_context():
    dtypes = {"x": np.dtype(np.float32)}

    def dtype_of(e):
        if isinstance(e, p.Variable):
            return dtypes.get(e.name)
        return np.dtype(np.float32)

    pr = CExpressionPrinter(dtype_of, target="opencl")
    assert pr(p.Product((p.Variable("x"), 0.5))) == "x * 0.5f"
    assert pr(2.0, ctx=np.dtype(np.float32)) == "2.0f"


def test_casts_and_conditionals():
    assert to_c(TypeCast(np.dtype(np.float32), p.Variable("n"))) == "(float) n"
    assert to_c(p.If(p.Comparison(p.Variable("a"), "<", 0), 1, 2)) == "a < 0 ? 1 : 2"
    assert to_c(p.Sum((p.If(p.Variable("c"), 1, 2), 3))) == "(c ? 1 : 2) + 3"


def test_reserved_words_are_renamed():
    assert to_c(p.Sum((p.Variable("local"), p.Variable("int")))) == "_tr_local + _tr_int"


def test_unknown_function_is_an_error():
    with pytest.raises(CodegenError, match="unknown function 'frobnicate'"):
        to_c(p.Call(p.Variable("frobnicate"), (1,)))


def test_reduction_must_be_lowered():
    """A reduction left for the printer is the translator's bug (AssertionError: exit 2)."""
    from translator.ir.expr import Reduction
    with pytest.raises(AssertionError, match="not lowered"):
        to_c(Reduction("sum", ("k",), p.Variable("k")))


def test_floor_division_helpers_when_sign_unknown():
    pr = CExpressionPrinter(lambda e: np.dtype(np.int32), is_nonnegative=lambda e: False,
                            target="opencl")
    assert pr(parse("a // b")) == "_tr_floordiv_int32(a, b)"
    assert pr(parse("a % b")) == "_tr_floormod_int32(a, b)"
    assert "_tr_floordiv_int32" in pr.helper_definitions()
    proved = CExpressionPrinter(lambda e: np.dtype(np.int32), is_nonnegative=lambda e: True,
                                target="opencl")
    assert proved(parse("a // b")) == "a / b"


def test_host_min_max_of_many_operands_is_linear():
    """Issue 28: a max of compound operands went through nested conditionals that printed
    each operand twice per level (25 operands: 789 MB); now the runtime's tr_max in a
    balanced tree, each operand once."""
    n = p.Variable("n")
    args = tuple(p.Product((k, n)) for k in range(1, 401))
    text = to_c(p.Call(p.Variable("max"), args))
    assert text.count("* n") == 400 and text.count("tr_max(") == 399
    assert to_c(p.Max((p.Sum((n, 1)), 0))) == "tr_max(n + 1, 0)"
    assert to_c(p.Min((p.Product((2, n)), p.Sum((n, 3)), 7))) == "tr_min(2 * n, tr_min(n + 3, 7))"
    assert to_c(p.Min((n, 128))) == "(n < 128 ? n : 128)"   # two atoms: as before
