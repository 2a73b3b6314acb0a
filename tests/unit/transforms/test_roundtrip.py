"""Transforms on kernels from `translator.make_kernel`: the result is well-formed and prints
and parses back to itself (`parse_kernel(print_kernel(k)) == k`)."""

from __future__ import annotations

import numpy as np
import pytest
from pymbolic import parse

import transforms
from translator.ir import isl_glue

translator = pytest.importorskip("translator")
pytest.importorskip("translator.ir.printer")

TEXT = """
out[i, j] = sum(k, a[i, k]*j)   {id=s0}
out2[i] = 2*i                   {id=s1}
"""


@pytest.fixture(scope="module")
def knl():
    return translator.make_kernel("{[i, j, k]: 0<=i<n and 0<=j<8 and 0<=k<m}", TEXT,
                                  assumptions="n mod 4 = 0")


CALLS = [
    ("split_iname", ("i", 4), {"outer_tag": "g.0", "inner_tag": "l.0", "slabs": (0, 1)}),
    ("split_iname", ("k", 4), {"within": "id:s0"}),
    ("chunk_iname", ("j", 3), {}),
    ("join_inames", (["i", "j"],), {"within": "id:s0"}),
    ("tag_inames", ("j:unr, i:g.0",), {}),
    ("rename_iname", ("i", "r"), {"within": "id:s1"}),
    ("rename_iname", ("k", "kk"), {}),
    ("prioritize_loops", ("j,i",), {}),
    ("remove_unused_inames", (), {}),
    ("fix_parameters", (), {"n": 8, "m": 3}),
    ("assume", ("m >= 1",), {}),
    ("set_options", (), {"trust_mappings": True, "extra": {"x": 1}}),
    ("add_and_infer_dtypes", ({"a": np.float32},), {}),
]


@pytest.mark.parametrize("name, args, kwargs", CALLS, ids=[c[0] for c in CALLS])
def test_transformed_kernel_round_trips(knl, name, args, kwargs):
    out = transforms.apply_call(knl, name, args, kwargs)
    isl_glue.check_forest(out.domains)
    assert translator.parse_kernel(translator.print_kernel(out)) == out


def test_split_on_parsed_kernel(knl):
    out = transforms.split_iname(knl, "k", 4, within="id:s0")
    s0 = out.statement("s0")
    assert s0.expression.inames == ("k_outer", "k_inner")
    assert s0.expression.expr == parse("a[i, k_inner + k_outer*4]*j")
    assert out.statement("s1") is knl.statement("s1")
    assert "k" not in out.all_inames


def test_remove_unused_after_split(knl):
    out = transforms.remove_unused_inames(knl)
    assert out is knl
