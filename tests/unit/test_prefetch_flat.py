"""add_prefetch on flat arrays: reads ``a[i*n + k]`` that split into rows of one length are
fetched as a 2-D tile; reads that do not are refused with the reason."""

from __future__ import annotations

import pytest

import transforms as tr
from translator import make_kernel
from translator.diagnostics import TransformError


def _tiled(insn: str):
    knl = make_kernel("{[i, k]: 0<=i,k<n and m >= 1}", insn)
    knl = tr.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    return tr.split_iname(knl, "k", 16)


def test_rows_of_one_length_are_fetched_as_a_tile() -> None:
    knl = tr.add_prefetch(_tiled("c[i] = sum(k, a[(n+4)*i + k] + a[(n+4)*i + k + 1])"), "a",
                          ["i_inner", "k_inner"])
    assert knl.temporaries["a_fetch"].shape == (16, 17)
    (fetch,) = [s for s in knl.statements if s.id == "a_fetch_rule"]
    assert str(fetch.expression).startswith("a[(a_dim_0 + 16*i_outer)*(n + 4) + ")


def test_rows_of_different_lengths_are_refused() -> None:
    with pytest.raises(TransformError, match=r"add_prefetch: cannot compute the footprint of "
                       r"'a': its reads split into rows of different lengths \(m; n\); "
                       r"prefetch the reads of one length with within= or a\$tag"):
        tr.add_prefetch(_tiled("c[i] = sum(k, a[i*n + k] + a[k*m + i])"), "a",
                        ["i_inner", "k_inner"])


def test_a_read_that_is_not_rows_is_refused() -> None:
    with pytest.raises(TransformError, match=r"add_prefetch: cannot compute the footprint of "
                       r"'a': its reads are flat subscripts that are not affine, with rows of "
                       r"a parameter length \(a\[\(i_inner \+ i_outer\*16\)\*n \+ k_inner "
                       r"\+ k_outer\*16\]\), and a\[i_inner \+ i_outer\*16 \+ k_inner \+ "
                       r"k_outer\*16 \+ 2\] is not such a row; prefetch the reads of one kind "
                       r"with within= or a\$tag"):
        tr.add_prefetch(_tiled("c[i] = sum(k, a[i*n + k] + a[i + k + 2])"), "a",
                        ["i_inner", "k_inner"])


def test_a_product_of_loop_variables_is_refused() -> None:
    with pytest.raises(TransformError, match=r"add_prefetch: cannot compute the footprint of "
                       r"'a': its read a\[\(i_inner \+ i_outer\*16\)\*\(k_inner \+ "
                       r"k_outer\*16\)\] is neither affine nor rows of a parameter length"):
        tr.add_prefetch(_tiled("c[i] = sum(k, a[i*k])"), "a", ["i_inner", "k_inner"])
