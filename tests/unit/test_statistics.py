"""Operation and memory-access counts (translator.analysis.statistics), checked against counts
made by walking the loops in Python."""

from __future__ import annotations

import numpy as np
import pytest

import translator
from translator import GlobalArg, make_kernel
from translator.analysis.statistics import MemAccess, Op
from translator.diagnostics import DomainError

F64 = np.dtype(np.float64)


def matvec():
    return make_kernel("{[i,k]: 0<=i<n and 0<=k<=i}",
                       "out[i] = sum(k, a[i,k]*v[k]) + 2*b[i] - 1",
                       [GlobalArg("a", np.float64, shape="n, n"),
                        GlobalArg("v", np.float64, shape="n"),
                        GlobalArg("b", np.float32, shape="n"),
                        GlobalArg("out", np.float64, shape="n"), "..."])


@pytest.mark.parametrize("n", [0, 1, 7, 40])
def test_counts_match_the_loops(n):
    inner = sum(i + 1 for i in range(n))        # points of the triangular reduction
    ops = translator.get_op_map(matvec())
    mem = translator.get_mem_access_map(matvec())
    params = {"n": n}
    assert ops[Op(F64, "mul")].eval_with_dict(params) == inner
    assert ops[Op(F64, "add")].eval_with_dict(params) == inner + 2 * n
    assert ops[Op(np.dtype(np.float32), "mul")].eval_with_dict(params) == n
    assert mem[MemAccess("global", F64, "load", "a")].eval_with_dict(params) == inner
    assert mem[MemAccess("global", F64, "store", "out")].eval_with_dict(params) == n
    loads = mem.filter_by(direction="load", variable=["a", "v"])
    assert loads.eval_and_sum(params) == 2 * inner
    assert ops.filter_by(dtype=np.float64).eval_and_sum(params) == 2 * inner + 2 * n


def test_subscript_arithmetic_is_counted_unless_asked_not_to():
    knl = make_kernel("{[i]: 0<=i<n}", "out[2*i + 1] = a[i]",
                      [GlobalArg("a", np.float64, shape="n"),
                       GlobalArg("out", np.float64, shape="2*n + 1"), "..."])
    with_index = translator.get_op_map(knl)
    assert with_index.filter_by(name="mul").eval_and_sum({"n": 5}) == 5
    assert translator.get_op_map(knl, count_within_subscripts=False) == {}


def test_a_missing_parameter_is_named():
    with pytest.raises(DomainError, match="a value for parameter 'n' is needed"):
        translator.get_op_map(matvec()).eval_and_sum({})
