"""C chained assignment: ``a = b = c;`` is one statement per assignment, the rightmost first,
and each outer one reads the inner target back (its value after the assignment, in its
type)."""

from __future__ import annotations

import pytest

from tests.unit.test_c_frontend import body, region, stmt_texts
from translator.diagnostics import UnsupportedConstructError

LOOP = "for (int i = 0; i < n; i++)"


def kernel_of(stmts: str, params: str = "int n, double *restrict a, double *restrict b"):
    return region(body(stmts, params)).kernel


def test_array_elements():
    k = kernel_of(f"{LOOP} a[i] = b[i] = 0.0;")
    assert stmt_texts(k) == ["b[i] = float64(0.0)", "a[i] = b[i]"]
    # each statement at its own target
    assert [(s.span.line, s.span.col) for s in k.statements] == [(7, 36), (7, 29)]


def test_three_scalars_of_mixed_types_convert_through_each_target():
    k = kernel_of(f"{LOOP} {{ int x; float y; double z; x = y = z = 1.5; a[i] = x + y + z; }}")
    texts = stmt_texts(k)
    assert texts[:3] == ["z = float64(1.5)", "y = cast(float32, z)", "x = cast(int32, y)"]


def test_inner_right_hand_side_reading_its_own_target():
    """``a[i] = t = t + 1``: the outer statement reads t after the update, not t + 1 again."""
    k = kernel_of(f"{LOOP} {{ double t = b[i]; a[i] = t = t + 1; }}")
    assert stmt_texts(k)[1:] == ["t = t + 1", "a[i] = t"]


def test_compound_outer_and_inner():
    k = kernel_of(f"{LOOP} a[i] += b[i] -= 2;")
    assert stmt_texts(k) == ["b[i] = b[i] - 2", "a[i] = a[i] + b[i]"]


def test_declaration_initialised_by_a_chain():
    k = kernel_of(f"{LOOP} {{ int m; double s = m = b[i]; a[i] = s; }}")
    assert stmt_texts(k) == ["m = cast(int32, b[i])", "s = cast(float64, m)", "a[i] = s"]


def test_assignment_inside_a_larger_expression_is_still_refused():
    with pytest.raises(UnsupportedConstructError, match="assignment inside an expression") as e:
        kernel_of(f"{LOOP} a[i] = (b[i] = 1) + 1;")
    assert (e.value.span.line, e.value.span.col) == (7, 37)
