"""Array and temporary transforms: tag_array_axes, set_array_axis_names, tag_reads,
split_array_axis, find_padding_multiple, add_padding, change_arg_to_image, set_temporary_address_space,
privatize_temporaries_with_inames, alias_temporaries."""

from __future__ import annotations

import re

import numpy as np
import pytest

import transforms
import translator
from tests.unit.transforms.builders import arr, check, knl, text
from translator.diagnostics import TransformError
from translator.ir.data import AddressSpace, FixedStrideTag, NestingTag, strides
from translator.ir.parse import TemporaryVariable
from translator.testing import compare_outputs


def grid():
    return knl("{[i, j]: 0<=i<n and 0<=j<8}", "out[i, j] = 2*a[i, j] + a[i, 7 - j]",
               arr("a", "n, 8"))


def run(kernel, ctx, **kwargs):
    import pyopencl as cl
    return translator.compile(kernel, ctx)(cl.CommandQueue(ctx), **kwargs)


# ---------------------------------------------------------------------------------------------
# tags and names


def test_tag_array_axes(ctx):
    k = grid()
    out = transforms.tag_array_axes(k, "a", "f,f")
    assert out.arg("a").dim_tags == (NestingTag(level=0), NestingTag(level=1))
    assert strides(out.arg("a").shape, out.arg("a").dim_tags)[0] == 1
    assert transforms.tag_array_axes(out, ["a"], "F") is out
    assert transforms.tag_array_axes(k, "a, out", "N1,N0") is k
    check(k, out, ctx, n=3)


def test_tag_array_axes_fixed_stride(ctx):
    k = grid()
    out = transforms.tag_array_axes(k, "a", "stride:10, stride:1")
    assert out.arg("a").dim_tags == (FixedStrideTag(stride=10), FixedStrideTag(stride=1))
    check(k, out, ctx, n=3)


@pytest.mark.parametrize("names, tags, message", [
    ("a", "c,c,c", r"array 'a': 3 dim tags given for 2 axes"),
    ("a", "c,x", r"unknown dim tag 'x'"),
    ("b", "c,c", r"unknown array 'b'"),
    ("n", "c", r"'n' is not an array with a known shape"),
])
def test_tag_array_axes_errors(names, tags, message):
    with pytest.raises(TransformError, match=message):
        transforms.tag_array_axes(grid(), names, tags)


def test_sep_and_vec_tags_are_ir_only():
    out = transforms.tag_array_axes(grid(), "a", "c,vec")
    with pytest.raises(translator.TranslatorError,
                       match="array 'a': axis 1 has the dim tag 'vec'"):
        translator.generate_code(out)


def test_set_array_axis_names_round_trips():
    k = grid()
    out = transforms.set_array_axis_names(k, "a, out", "row, col")
    assert out.options.extra["array_axis_names"] == (("a", ("row", "col")),
                                                     ("out", ("row", "col")))
    assert translator.parse_kernel(translator.print_kernel(out)) == out
    assert transforms.set_array_axis_names(out, "a", ["row", "col"]) is out
    renamed = transforms.rename_argument(out, "a", "b")
    assert dict(renamed.options.extra["array_axis_names"])["b"] == ("row", "col")
    with pytest.raises(TransformError, match=r"1 axis name\(s\) for the 2 axes of 'a'"):
        transforms.set_array_axis_names(k, "a", "row")
    with pytest.raises(TransformError, match="axis names must be distinct identifiers"):
        transforms.set_array_axis_names(k, "a", "x, x")


def syrk(j_bound: str = "j<=i"):
    return knl(f"{{[i, j, k]: 0<=i<n and 0<={j_bound} and 0<=k<8}}",
               """<float32> acc = 0  {id=z, inames=i:j}
                  acc = acc + a[i, k]*a[j, k] + a[i, k]  {id=add, dep=z, inames=i:j:k}
                  c[i, j] = acc  {id=w, dep=add, inames=i:j}""", arr("a", "n, 8"))


def test_tag_reads_tells_the_reads_of_one_array_apart(ctx):
    k = syrk()
    out = transforms.tag_reads(transforms.tag_reads(k, "a", "row", "i"), "a", "col", "j")
    assert "acc = acc + a$row[i, k]*a$col[j, k] + a$row[i, k]" in text(out)
    assert translator.parse_kernel(translator.print_kernel(out)) == out
    check(k, out, ctx, n=5)
    # a tile of each, as dense tiling fetches them: the reads of one array fetched apart
    square = transforms.tag_reads(transforms.tag_reads(syrk("j<n"), "a", "row", "i"), "a",
                                  "col", "j")
    tiled = transforms.split_iname(square, "i", 4, outer_tag="g.0", inner_tag="l.0")
    tiled = transforms.split_iname(tiled, "j", 4, outer_tag="g.1", inner_tag="l.1")
    tiled = transforms.split_iname(tiled, "k", 4)
    tiled = transforms.add_prefetch(tiled, "a$row", ["i_inner", "k_inner"],
                                    within="iname:k_inner")
    tiled = transforms.add_prefetch(tiled, "a$col", ["j_inner", "k_inner"],
                                    within="iname:k_inner")
    assert "a$" not in text(tiled) and {"a_fetch", "a_fetch_0"} <= set(tiled.temporaries)
    check(syrk("j<n"), tiled, ctx, n=7)


@pytest.mark.parametrize("array, tag, iname, message", [
    ("c", "x", "i", "statement 'w' writes 'c'; only the reads of an array the kernel does "
                    "not write can be told apart"),
    ("a", "x", "q", "unknown iname 'q'"),
    ("a", "1x", "i", "tag must be an identifier, got '1x'"),
    ("b", "x", "i", "unknown array 'b'"),
])
def test_tag_reads_errors(array, tag, iname, message):
    with pytest.raises(TransformError, match=re.escape(f"tag_reads: {message}")):
        transforms.tag_reads(syrk(), array, tag, iname)


def test_tag_reads_needs_a_read_that_uses_the_iname():
    k = transforms.tag_reads(syrk(), "a", "row", "i")
    with pytest.raises(TransformError, match="tag_reads: no read of 'a' has a subscript that "
                                             "uses 'i'"):
        transforms.tag_reads(k, "a", "again", "i")


# ---------------------------------------------------------------------------------------------
# split_array_axis


def test_split_array_axis_structure():
    out = transforms.split_array_axis(grid(), "a", 1, 4)
    a = out.arg("a")
    assert a.shape[1:] == (2, 4)
    assert "a[i, j // 4, j % 4]" in text(out)
    assert strides(a.shape, a.dim_tags)[1:] == (4, 1)
    f_order = transforms.split_array_axis(grid(), "a", 1, 4, order="F").arg("a")
    assert f_order.shape[1:] == (4, 2)
    assert strides(f_order.shape, f_order.dim_tags)[1:] == (1, 4)


def test_split_array_axis_keeps_memory_layout(ctx):
    k = grid()
    a = np.random.default_rng(1).uniform(-1, 1, (3, 8)).astype(np.float32)
    ref = run(k, ctx, a=a)
    for order, view in (("C", a.reshape(3, 2, 4)), ("F", a.reshape(3, 2, 4).swapaxes(1, 2))):
        out = transforms.split_array_axis(k, "a", 1, 4, order=order)
        compare_outputs(ref, run(out, ctx, a=view), rtol=0)
    uneven = transforms.split_array_axis(k, "a", 1, 3)
    assert all(isinstance(t, FixedStrideTag) for t in uneven.arg("a").dim_tags)


def test_split_array_axis_of_a_temporary(ctx):
    k = knl("{[i, j, jj]: 0<=i<n and 0<=j,jj<6}", """
        t[j] = a[i, j]*2           {id=w}
        out[i, jj] = t[5 - jj]     {id=r, dep=w}
        """, arr("a", "n, 6"), TemporaryVariable("t", np.float32, shape=(6,)))
    out = transforms.split_array_axis(k, "t", 0, 4)
    assert out.temporaries["t"].shape == (2, 4)
    check(k, out, ctx, n=3)


@pytest.mark.parametrize("args, message", [
    (("a", 2, 4), r"axis_nr 2 is not an axis of 'a' \(it has 2\)"),
    (("a", 1, 0), r"count must be a positive integer, got 0"),
    (("a", 1, 4, "G"), r"order must be 'C' or 'F', got 'G'"),
])
def test_split_array_axis_errors(args, message):
    with pytest.raises(TransformError, match=message):
        transforms.split_array_axis(grid(), *args)


# ---------------------------------------------------------------------------------------------
# padding and images


def rows():
    return knl("{[i, j]: 0<=i<n and 0<=j<5}", "out[i, j] = a[i, j] + a[i, 4 - j]",
               arr("a", "n, 5"))


def test_find_padding_multiple():
    assert transforms.find_padding_multiple(rows(), "a", 0, 64) == 3
    assert transforms.find_padding_multiple(rows(), "a", 0, 64, allowed_waste=2.5) == 1
    with pytest.raises(TransformError, match=r"stride of axis 0 of 'a' \(m\) is not a known "
                                             "integer"):
        transforms.find_padding_multiple(
            knl("{[i, j]: 0<=i<n and 0<=j<m}", "out[i, j] = a[i, j]", arr("a", "n, m")),
            "a", 0, 64)


def test_add_padding(ctx):
    k = rows()
    out = transforms.add_padding(k, "a", 0, 32)
    assert strides(out.arg("a").shape, out.arg("a").dim_tags) == (8, 1)
    check(k, out, ctx, n=3)
    sym = knl("{[i, j]: 0<=i<n and 0<=j<m}", "out[i, j] = 2*a[i, j]", arr("a", "n, m"))
    padded = transforms.add_padding(sym, "a", 0, 16)
    assert str(padded.arg("a").dim_tags[0].stride) == "((m + 3) // 4)*4"
    check(sym, padded, ctx, n=3, m=5)
    aligned = transforms.add_padding(k, "a", 1, 4)
    assert aligned is k


def test_add_padding_errors():
    k = knl("{[i, j]: 0<=i<n and 0<=j<5}", "out[i, j] = a[i, j]", arr("a", "n, 5"),
            TemporaryVariable("t", np.float32, shape=(4, 4)))
    with pytest.raises(TransformError, match="'t' is a temporary; only array arguments"):
        transforms.add_padding(k, "t", 0, 32)
    with pytest.raises(TransformError, match="align_bytes 6 is not a multiple of the element "
                                             "size of 'a' \\(4 bytes\\)"):
        transforms.add_padding(k, "a", 0, 6)
    with pytest.raises(TransformError, match="axis 3 is not an axis of 'a'"):
        transforms.add_padding(k, "a", 3, 32)


def test_change_arg_to_image_of_a_value_argument_is_an_error():
    with pytest.raises(TransformError, match="'n' is not an array argument"):
        transforms.change_arg_to_image(grid(), "n")


# ---------------------------------------------------------------------------------------------
# temporaries


def test_set_temporary_address_space(ctx):
    k = knl("{[i, j, jj]: 0<=i<n and 0<=j,jj<6}", """
        t[j] = a[i, j]*2           {id=w}
        out[i, jj] = t[5 - jj]     {id=r, dep=w}
        """, arr("a", "n, 6"), TemporaryVariable("t", np.float32, shape=(6,)))
    out = transforms.set_temporary_address_space(k, "t", "local")
    assert out.temporaries["t"].address_space is AddressSpace.LOCAL
    assert "__local float t[6];" in translator.generate_code(out).device_code
    assert transforms.set_temporary_address_space(out, ["t"], AddressSpace.LOCAL) is out
    check(k, out, ctx, n=3)
    with pytest.raises(TransformError, match="unknown address space 'shared'"):
        transforms.set_temporary_address_space(k, "t", "shared")
    with pytest.raises(TransformError, match="'a' is not a temporary of kernel"):
        transforms.set_temporary_address_space(k, "a", "local")


def accumulate():
    """The reference's example: one accumulator shared by all imatrix iterations."""
    return knl("{[imatrix, i, k]: 0<=imatrix<4 and 0<=i<n and 0<=k<m}", """
        <float32> acc = 0                        {id=init, inames=imatrix:i}
        acc = acc + a[imatrix, i, k]*vec[k]      {id=upd, dep=init, inames=imatrix:i:k}
        out[imatrix, i] = acc                    {id=store, dep=upd, inames=imatrix:i}
        """, arr("a", "4, n, m"), arr("vec", "m"))


def test_privatize_structure():
    out = transforms.privatize_temporaries_with_inames(accumulate(), "imatrix")
    assert out.temporaries["acc"].shape == (4,)
    assert "acc[imatrix] = acc[imatrix] + a[imatrix, i, k]*vec[k]" in text(out)
    k = accumulate()
    assert transforms.privatize_temporaries_with_inames(k, "imatrix", only_var_names=[]) is k


def test_privatize_allows_interchange(ctx):
    k = accumulate()
    out = transforms.privatize_temporaries_with_inames(k, "imatrix", only_var_names="acc")
    check(k, transforms.prioritize_loops(out, "i, k, imatrix"), ctx, n=3, m=5)


def test_privatize_lower_bound_and_errors():
    k = knl("{[p, i]: 2<=p<5 and 0<=i<n}", "<float32> s = a[p, i] {id=w}\nout[p, i] = s {id=r}",
            arr("a", "5, n"))
    out = transforms.privatize_temporaries_with_inames(k, "p")
    assert "s[p - 2] = a[p, i]" in text(out) and out.temporaries["s"].shape == (3,)
    outside = knl("{[p, i]: 0<=p<3 and 0<=i<n}",
                  "<float32> s = a[p, i] {id=w}\nout[i] = s {id=r, inames=i, dep=w}",
                  arr("a", "3, n"))
    with pytest.raises(TransformError, match="statement 'r' uses 's', which is privatized "
                                             "over p, but is not inside p"):
        transforms.privatize_temporaries_with_inames(outside, "p")
    tri = knl("{[p, i]: 0<=p<n and 0<=i<n}", "<float32> s = a[p, i] {id=w}\nout[p, i] = s",
              arr("a", "n, n"))
    with pytest.raises(TransformError, match="iname 'p' does not take a constant number"):
        transforms.privatize_temporaries_with_inames(tri, "p")


def two_temps():
    return knl("{[i, j, jj]: 0<=i<n and 0<=j,jj<4}", """
        t1[j] = a[i, j]            {id=w1}
        b[i, jj] = 2*t1[3 - jj]    {id=r1, dep=w1}
        t2[j] = b[i, j] + 1        {id=w2, dep=r1, inames=i:j}
        out[i, jj] = t2[3 - jj]    {id=r2, dep=w2}
        """, arr("a", "n, 4"), TemporaryVariable("t1", np.float32, shape=(4,)),
               TemporaryVariable("t2", np.float32, shape=(4,)))


def test_alias_temporaries(ctx):
    k = two_temps()
    out = transforms.alias_temporaries(k, "t1, t2")
    assert {t.base_storage for t in out.temporaries.values()} == {"_tr_base_storage"}
    assert out.statement("w1").groups == {"_tr_base_storage_t1"}
    assert out.statement("r2").conflicts_with_groups == {"_tr_base_storage_t1"}
    assert translator.parse_kernel(translator.print_kernel(out)) == out
    plain = transforms.alias_temporaries(k, ["t1", "t2"], base_name_prefix="store",
                                         synchronize_for_exclusive_use=False)
    assert plain.temporaries["t1"].base_storage == "store"
    assert plain.statements == k.statements
    check(k, out, ctx, n=3)


def test_alias_temporaries_errors():
    k = two_temps()
    with pytest.raises(TransformError, match="'t1' is already backed by"):
        transforms.alias_temporaries(transforms.alias_temporaries(k, "t1"), "t1, t2")
    local = transforms.set_temporary_address_space(k, "t2", "local")
    with pytest.raises(TransformError, match=r"different address spaces \(local, private\)"):
        transforms.alias_temporaries(local, "t1, t2")
    mixed = knl("{[j]: 0<=j<4}", "t1[j] = 1 {id=w1}\nt2[j] = t1[j] {id=w2, dep=w1}",
                TemporaryVariable("t1", np.float32, shape=(4,)),
                TemporaryVariable("t2", np.float32, shape=(4,)))
    with pytest.raises(TransformError, match="statement 'w2' uses several of the "
                                             r"temporaries being aliased \(t1, t2\)"):
        transforms.alias_temporaries(mixed, "t1, t2")
