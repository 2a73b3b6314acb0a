"""The pyopencl execution layer and the differential tester."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
import translator
from translator import execution
from translator.diagnostics import TranslatorError
from translator.ir.parse import GlobalArg
from translator.testing import auto_test_vs_ref


def scale_kernel(order="C"):
    return translator.make_kernel("{[i,j]: 0<=i<n and 0<=j<m}", "b[i,j] = 2*a[i,j] + j",
                                  [GlobalArg("a", np.float32, shape="n,m", order=order),
                                   GlobalArg("b", np.float32, shape="n,m", order=order), "..."])


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("given", ["C", "F", "strided"])
def test_any_input_layout_is_accepted(ctx, queue, order, given):
    a = np.arange(35, dtype=np.float32).reshape(5, 7)
    if given == "F":
        a = np.asfortranarray(a)
    elif given == "strided":
        a = np.arange(70, dtype=np.float32).reshape(5, 14)[:, ::2]
    out = translator.compile(scale_kernel(order), ctx)(queue, a=a)
    np.testing.assert_array_equal(out["b"], 2 * a + np.arange(7))


def test_value_arguments_come_from_shapes(ctx, queue):
    run = translator.compile(scale_kernel(), ctx)
    out = run(queue, a=np.ones((2, 3), np.float32))
    assert out["b"].shape == (2, 3)


def test_missing_inputs_are_named(ctx, queue):
    run = translator.compile(scale_kernel(), ctx)
    with pytest.raises(TranslatorError, match="missing input"):
        run(queue)
    with pytest.raises(TranslatorError, match="no argument"):
        run(queue, a=np.ones((2, 3), np.float32), bogus=1)
    with pytest.raises(TranslatorError, match="expected shape"):
        run(queue, a=np.ones((2, 3), np.float32), n=4)


def test_program_is_built_once(ctx, queue):
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 3*i + 11",
                                 [GlobalArg("out", np.int32, shape="n"), "..."])
    run = translator.compile(knl, ctx)
    run(queue, n=4)
    count = len(execution._PROGRAMS)
    np.testing.assert_array_equal(translator.compile(knl, ctx)(queue, n=4)["out"],
                                  3 * np.arange(4) + 11)
    assert len(execution._PROGRAMS) == count


def test_empty_range_skips_the_launch(ctx, queue):
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 1",
                                 [GlobalArg("out", np.int32, shape="n + 1"), "..."])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    assert translator.compile(knl, ctx)(queue, n=0)["out"].tolist() == [0]


def test_auto_test_accepts_a_correct_transformation(ctx):
    ref = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = a*x[i] + y[i]",
                                 [GlobalArg("x", np.float32, shape="n"),
                                  GlobalArg("y", np.float32, shape="n"),
                                  translator.ValueArg(name="a", dtype=np.float32), "..."])
    test = transforms.split_iname(ref, "i", 16, outer_tag="g.0", inner_tag="l.0")
    out = auto_test_vs_ref(ref, ctx, test, parameters={"n": 37})
    assert out["y"].shape == (37,)


def test_auto_test_reports_the_first_mismatch(ctx):
    ref = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = 2*x[i]",
                                 [GlobalArg("x", np.float32, shape="n"), "..."])
    wrong = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = if(i == 5, 3*x[i], 2*x[i])",
                                   [GlobalArg("x", np.float32, shape="n"), "..."])
    with pytest.raises(AssertionError, match=r"output 'y' differs: max abs error .* index \(5,\)"):
        auto_test_vs_ref(ref, ctx, wrong, parameters={"n": 20})
