"""fuse_kernels (transforms/fusion.py): loopy's test_fuse_kernels shape run on the CPU OpenCL
device against the kernel written fused by hand, and what fusion refuses."""

from __future__ import annotations

import numpy as np
import pytest

import transforms as tr
from tests.unit.transforms.builders import text
from translator import GlobalArg, make_kernel
from translator.diagnostics import TransformError

DOMAIN = "{[e,i,j,k]: 0<=e<nelements and 0<=i,j,k<ndofs}"
X_LINES = """<> prev = result[e,i,j]  {id=p, dep=*}
             result[e,i,j] = prev + d[i,k]*q[e,i,k]  {id=r, dep=*p}"""
Y_LINES = """<> prev = result[e,i,j]  {id=p, dep=*}
             result[e,i,j] = prev + d[i,k]*q[e,k,j]  {id=r, dep=*p}"""


def deriv(name: str, lines: str, domain: str = DOMAIN):
    return make_kernel(domain, lines,
                       [GlobalArg("result", np.float64, shape="nelements, ndofs, ndofs"),
                        GlobalArg("q", np.float64, shape="nelements, ndofs, ndofs"),
                        GlobalArg("d", np.float64, shape="ndofs, ndofs"), "..."], name=name)


def by_hand():
    return deriv("xyderiv", """<> prev = result[e,i,j]  {id=p0, dep=*}
        result[e,i,j] = prev + d[i,k]*q[e,i,k]  {id=r0, dep=*p0}
        prev = result[e,i,j]  {id=p1, dep=*r0}
        result[e,i,j] = prev + d[i,k]*q[e,k,j]  {id=r1, dep=*p1}""")


def test_fused_derivatives_compute_what_the_hand_fused_kernel_does(ctx):
    from translator.testing import auto_test_vs_ref
    fused = tr.fuse_kernels([deriv("xderiv", X_LINES), deriv("yderiv", Y_LINES)],
                            data_flow=[("result", 0, 1)])
    assert fused.name == "xderiv_and_yderiv"
    assert sorted(fused.temporaries) == ["prev_0", "prev_1"]
    assert [s.id for s in fused.statements] == ["p_0", "r_0", "p_1", "r_1"]
    assert fused.statement("p_1").depends_on == {"r_0"}
    assert len(fused.domains) == 1
    fused = tr.prioritize_loops(fused, "e,i,j,k")
    auto_test_vs_ref(tr.prioritize_loops(by_hand(), "e,i,j,k"), ctx, fused,
                     parameters=dict(nelements=20, ndofs=4))


def test_fusion_without_data_flow_keeps_kernels_independent():
    fill = make_kernel("{[i]: 0<=i<n}", "out[i] = a", name="fill")
    twice = make_kernel("{[i]: 0<=i<n}", "other[i] = 2*b[i]", name="twice")
    fused = tr.fuse_kernels([fill, twice], suffixes=["_f", "_t"])
    assert len(fused.domains) == 1 and all(not s.depends_on for s in fused.statements)
    assert "out[i] = a" in text(fused) and "other[i] = 2*b[i]" in text(fused)


def test_fusion_refusals():
    x = deriv("xderiv", X_LINES)
    other = deriv("other", Y_LINES, "{[e,i,j,k]: 0<=e<nelements and 0<=i,j,k<ndofs + 1}")
    with pytest.raises(TransformError, match="loop over iname\\(s\\) e, i, j, k with "
                       "different domains"):
        tr.fuse_kernels([x, other])
    narrow = make_kernel(DOMAIN, "result[e,i,j] = 1",
                         [GlobalArg("result", np.float32, shape="nelements, ndofs, ndofs"),
                          "..."])
    with pytest.raises(TransformError, match="argument 'result' is declared differently"):
        tr.fuse_kernels([x, narrow])
    with pytest.raises(TransformError, match="2 is not a kernel index"):
        tr.fuse_kernels([x, deriv("y", Y_LINES)], data_flow=[("result", 0, 2)])
    with pytest.raises(TransformError, match="kernel 0 writes 'd' in 0"):
        tr.fuse_kernels([x, deriv("y", Y_LINES)], data_flow=[("d", 0, 1)])
    with pytest.raises(TransformError, match="suffixes must be 2 distinct"):
        tr.fuse_kernels([x, deriv("y", Y_LINES)], suffixes=["_a", "_a"])
