"""buffer_array: accesses (reads and writes) moved to a buffer with init and store
statements; structure, errors, and runs against the untransformed kernels on the device."""

from __future__ import annotations

import numpy as np
import pytest

import translator
import transforms
from translator.diagnostics import TransformError
from translator.ir.data import AddressSpace
from translator.ir.parse import GlobalArg
from translator.ir.tags import LocalTag
from translator.testing import auto_test_vs_ref


def row_sums():
    """c[i] accumulates over k, read and written in the loop."""
    return translator.make_kernel(
        "{[i, k]: 0<=i<n and 0<=k<m}", "c[i] = c[i] + a[i, k]",
        [GlobalArg("a", np.float32, shape="n, m"), GlobalArg("c", np.float32, shape="n"),
         "..."])


def grouped(local: bool):
    return transforms.split_iname(row_sums(), "i", 16, outer_tag="g.0",
                                  inner_tag="l.0" if local else None)


def test_private_accumulation_buffer():
    knl = transforms.buffer_array(grouped(False), "c", "i_inner", init_expression="0",
                                  store_expression="base + buffer", default_tag=None)
    assert knl.temporaries["c_buf"].shape == (16,)
    assert knl.temporaries["c_buf"].address_space == AddressSpace.PRIVATE
    stmts = knl.id_to_statement
    assert str(stmts["insn"].assignee) == "c_buf[i_inner]"
    assert str(stmts["insn"].expression) == "c_buf[i_inner] + a[i_inner + i_outer*16, k]"
    assert str(stmts["init_c"].expression) == "0"
    assert str(stmts["store_c"].assignee) == "c[c_store0 + 16*i_outer]"
    assert str(stmts["store_c"].expression) == ("c[c_store0 + 16*i_outer] + "
                                                "c_buf[c_store0]")
    assert "init_c" in stmts["insn"].depends_on and "insn" in stmts["store_c"].depends_on


def test_local_buffer_uses_the_work_group():
    knl = transforms.buffer_array(grouped(True), "c", "i_inner")
    assert knl.temporaries["c_buf"].address_space == AddressSpace.LOCAL
    assert knl.tag_of("c_init0", LocalTag) == LocalTag(0)
    assert knl.tag_of("c_store0", LocalTag) == LocalTag(0)
    code = translator.generate_code(knl).device_code
    assert code.count("barrier(CLK_LOCAL_MEM_FENCE)") == 2     # after init, before store


def test_no_store_and_later_readers_wait():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", "t[i] = 2*x[i]  {id=w}\nout[i] = t[i] + 1  {id=r, dep=w}",
        [GlobalArg("x", np.float32, shape="n"), GlobalArg("t", np.float32, shape="n"),
         "..."])
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.0")
    stored = transforms.buffer_array(knl, "t", "i_inner", within="id:w", default_tag=None)
    assert "store_t" in stored.id_to_statement["r"].depends_on
    unstored = transforms.buffer_array(knl, "t", "i_inner", within="id:w",
                                       store_expression=False, default_tag=None)
    assert "store_t" not in unstored.id_to_statement


def test_errors():
    with pytest.raises(TransformError, match="no access to 'c'"):
        transforms.buffer_array(grouped(False), "c", "i_inner", within="id:none")
    with pytest.raises(TransformError, match=r"unknown array 'cc' \(did you mean 'c'"):
        transforms.buffer_array(grouped(False), "cc", "i_inner")
    with pytest.raises(TransformError, match="init_expression '2\\*x' may only use base"):
        transforms.buffer_array(grouped(False), "c", "i_inner", init_expression="2*x")
    with pytest.raises(TransformError, match="no constant size"):
        transforms.buffer_array(row_sums(), "c", "i")


@pytest.mark.parametrize("local", [False, True])
def test_buffers_run(ctx, local):
    knl = transforms.buffer_array(grouped(local), "c", "i_inner", init_expression="0",
                                  store_expression="base + buffer",
                                  default_tag="l.auto" if local else None)
    auto_test_vs_ref(row_sums(), ctx, knl, parameters={"n": 37, "m": 7}, rtol=1e-5)


def test_default_init_and_store_run(ctx):
    knl = transforms.buffer_array(grouped(True), "c", "i_inner")
    auto_test_vs_ref(row_sums(), ctx, knl, parameters={"n": 45, "m": 3}, rtol=1e-5)
