"""collect_common_factors_on_increment (transforms/arithmetic.py): the transformed kernel
against the untransformed one on the CPU OpenCL device, and what the transform refuses."""

from __future__ import annotations

import numpy as np
import pytest

import transforms as tr
from tests.unit.transforms.builders import arr, check, knl, text
from translator.diagnostics import TransformError

DOMAIN = "{[i,k,j]: 0<=i<n and 0<=k<m and 0<=j<2}"


def dot(second: str = "acc = acc + b[k]*alpha*a[i,k]*2  {id=inc2, inames=i:k, dep=inc}"):
    return knl(DOMAIN, f"""
        <float64> acc = 0  {{id=z, inames=i}}
        acc = acc + alpha*a[i,k]*b[k]*2  {{id=inc, inames=i:k, dep=z}}
        {second}
        out[i, j] = acc + j  {{id=w, inames=i:j, dep=inc2}}
        """, arr("a", "n, m", np.float64), arr("b", "m", np.float64),
        arr("out", "n, 2", np.float64))


def test_common_factors_move_to_the_reads(ctx):
    before = dot()
    after = tr.collect_common_factors_on_increment(before, "acc")
    body = text(after)
    assert "acc = acc + a[i, k]*b[k]  {id=inc," in body
    assert "acc = acc + b[k]*a[i, k]  {id=inc2," in body
    assert "out[i, j] = alpha*2*acc + j" in body
    check(before, after, ctx, n=13, m=9, alpha=0.75)


def test_nothing_in_common_is_no_change():
    before = dot("acc = acc + b[k]  {id=inc2, inames=i:k, dep=inc}")
    assert tr.collect_common_factors_on_increment(before, "acc") is before


def test_refusals():
    with pytest.raises(TransformError, match="statement 'inc2' writes 'acc' but is neither an "
                       r"increment \(acc = acc \+ \.\.\.\) nor a zero"):
        tr.collect_common_factors_on_increment(
            dot("acc = 2*acc  {id=inc2, inames=i:k, dep=inc}"), "acc")
    with pytest.raises(TransformError, match="'out' is not a temporary of kernel"):
        tr.collect_common_factors_on_increment(dot(), "out")
