"""Differential tests: each transformed kernel against the untransformed one, on random
inputs, compiled and run on the CPU OpenCL device (`translator.testing.auto_test_vs_ref`)."""

from __future__ import annotations

import numpy as np
import pytest

import transforms

cl = pytest.importorskip("pyopencl")
translator = pytest.importorskip("translator")
testing = pytest.importorskip("translator.testing")
GlobalArg = pytest.importorskip("translator.ir.parse").GlobalArg


@pytest.fixture(scope="module")
def ctx():
    try:
        return cl.create_some_context(interactive=False)
    except cl.Error as e:  # pragma: no cover - depends on the machine
        pytest.skip(f"no OpenCL device: {e}")


def check(ref, test, ctx, **parameters):
    assert test is not ref
    testing.auto_test_vs_ref(ref, ctx, test, parameters=parameters)


def saxpy():
    return translator.make_kernel(
        "{[i]: 0<=i<n}", "y[i] = 3*x[i] + y[i]",
        [GlobalArg("x", np.float32, shape="n"), GlobalArg("y", np.float32, shape="n"), "..."])


def matvec():
    return translator.make_kernel(
        "{[i, k]: 0<=i<n and 0<=k<m}", "out[i] = sum(k, a[i, k]*v[k])",
        [GlobalArg("a", np.float64, shape="n, m"), GlobalArg("v", np.float64, shape="m"),
         "..."])


def grid():
    return translator.make_kernel(
        "{[i, j]: 0<=i<n and 0<=j<8}", "out[i, j] = a[i, j] * (i + 2*j)",
        [GlobalArg("a", np.float32, shape="n, 8"), "..."])


@pytest.mark.parametrize("length, tags", [(16, ("g.0", "l.0")), (3, (None, None)),
                                          (4, ("g.0", "unr"))])
def test_split(ctx, length, tags):
    ref = saxpy()
    test = transforms.split_iname(ref, "i", length, outer_tag=tags[0], inner_tag=tags[1])
    check(ref, test, ctx, n=37)


def test_split_reduction_and_output(ctx):
    ref = matvec()
    test = transforms.split_iname(ref, "k", 4)
    test = transforms.split_iname(test, "i", 8, outer_tag="g.0", inner_tag="l.0")
    check(ref, test, ctx, n=19, m=13)


def test_split_within(ctx):
    ref = translator.make_kernel(
        "{[i]: 0<=i<n}", """
        b[i] = 2*a[i]            {id=s0}
        c[i] = a[i] + 1          {id=s1}
        """, [GlobalArg("a", np.float32, shape="n"), "..."])
    test = transforms.split_iname(ref, "i", 4, within="id:s1")
    assert test.all_inames == {"i", "i_outer", "i_inner"}
    check(ref, test, ctx, n=10)


@pytest.mark.parametrize("n", [10, 12])
def test_chunk(ctx, n):
    ref = saxpy()
    check(ref, transforms.chunk_iname(ref, "i", 4, outer_tag="g.0"), ctx, n=n)


def test_join(ctx):
    ref = grid()
    check(ref, transforms.join_inames(ref, ["i", "j"], tag="g.0"), ctx, n=5)


def test_tag_rename_prioritize(ctx):
    ref = grid()
    test = transforms.tag_inames(ref, "j:l.0, i:g.0")
    check(ref, test, ctx, n=6)
    test = transforms.rename_iname(ref, "i", "row")
    test = transforms.prioritize_loops(test, "j,row")
    check(ref, test, ctx, n=6)


def test_rename_inames_merge(ctx):
    ref = translator.make_kernel(
        ["{[i]: 0<=i<n}", "{[k]: 0<=k<n}"], """
        b[i] = 2*a[i]
        c[k] = a[k] - 1
        """, [GlobalArg("a", np.float32, shape="n"), "..."])
    test = transforms.rename_inames(ref, ["i", "k"], "j")
    assert test.all_inames == {"j"}
    check(ref, test, ctx, n=9)


def test_fix_parameters(ctx):
    ref = saxpy()
    test = transforms.fix_parameters(ref, n=24)
    test = transforms.split_iname(test, "i", 8, outer_tag="g.0", inner_tag="l.0")
    outs = testing.auto_test_vs_ref(transforms.fix_parameters(ref, n=24), ctx, test,
                                    parameters={})
    assert outs["y"].shape == (24,)


def test_assume(ctx):
    ref = saxpy()
    test = transforms.assume(ref, "n mod 8 = 0 and n >= 8")
    check(ref, transforms.split_iname(test, "i", 8, inner_tag="l.0"), ctx, n=16)
