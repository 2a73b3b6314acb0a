"""A reduction inside a multi-index subscript (``c(i, sum(idx))``): `has_reduction` did not look
inside the index tuple, so the reduction was never lowered and the translation stopped with
"reduction ... was not lowered before printing (internal)".  It now translates and matches."""

from __future__ import annotations

from pathlib import Path

import pymbolic.primitives as p

from tests.e2e.harness import check_sample
from translator.ir.expr import Reduction
from translator.ir.mappers import has_reduction

PROGRAM = """\
program hr
  implicit none
  integer, parameter :: n = 32
  integer :: i, k, idx(3)
  real :: a(n), c(n, 8)
  do i = 1, n
    c(i, :) = [(real(i * k), k = 1, 8)]
  end do
  idx = [1, 2, 2]
!$translate kernel hrk
  do i = 1, n
    a(i) = c(i, sum(idx))
  end do
!$translate end kernel
  print *, a(1), a(n), sum(a)
end program hr
"""


def test_has_reduction_looks_inside_a_multi_index_subscript() -> None:
    red = Reduction("sum", ("k",), p.Subscript(p.Variable("b"), p.Variable("k")))
    assert has_reduction(p.Subscript(p.Variable("a"), (p.Variable("i"), red)))
    assert not has_reduction(p.Subscript(p.Variable("a"), (p.Variable("i"), 1)))


def test_a_reduction_in_a_subscript_translates_and_matches(tmp_path: Path) -> None:
    src = tmp_path / "hr.f90"
    src.write_text(PROGRAM)
    out = check_sample(src, tmp_path)
    assert "160.0" in out
