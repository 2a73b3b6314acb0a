"""Two nested loops mapped to one hardware axis (found by the CLI fuzzer: a private-flow
proof compared the two loops' coordinates and stopped with an internal error)."""

from __future__ import annotations

import pytest

from translator.diagnostics import LegalityError
from translator.driver import translate_text

MATMUL = """\
void mm(int n, const double A[n][n], const double B[n][n], double C[n][n])
{
#pragma translate kernel mm_k
#pragma translate split_iname("i", 16, outer_tag="g.1", inner_tag="INNER")
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double acc = 0.0;
      for (int k = 0; k < n; k++)
        acc += A[i][k] * B[k][j];
      C[i][j] = acc;
    }
#pragma translate end kernel
}
"""


def test_nested_loops_on_one_axis_are_refused() -> None:
    with pytest.raises(LegalityError) as info:
        translate_text("mm.c", MATMUL.replace("INNER", "g.1"))
    assert info.value.message.startswith(
        "loops i_inner and i_outer are both mapped to g.1, and statement"), info.value.message
    assert info.value.message.endswith("nested loops need different hardware axes")
    assert info.value.span.line == 8


def test_sibling_loops_may_share_an_axis() -> None:
    text = """\
void two(int n, double *restrict a, double *restrict b)
{
#pragma translate kernel two_k
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("j", 32, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    a[i] = 2.0 * a[i];
  for (int j = 0; j < n; j++)
    b[j] = 3.0 * b[j];
#pragma translate end kernel
}
"""
    translate_text("two.c", text)
    translate_text("mm.c", MATMUL.replace("INNER", "l.1"))
