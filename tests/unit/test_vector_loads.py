"""Vector loads from local memory (`translator.codegen.vector_loads`): generated only where the
elements are consecutive, all read, not written in the nest, unguarded, and the first one's
index is proved a multiple of the vector length; every kernel also runs on PoCL."""

from __future__ import annotations

import re

import numpy as np
import pymbolic.primitives as p
import pytest

import transforms
import translator
from translator.codegen.opencl import generate_code
from translator.codegen.vector_loads import NotLinear, linear_form
from translator.ir.parse import GlobalArg, TemporaryVariable


def _kernel(read: str, *, dtype=np.float32, size: int = 64, domain_extra: str = "",
            stage: str = "tile[l2] = a[64*g + l2]", body: str | None = None):
    """Work group g of 16 items (l on l.0); the group stages 64 elements of `a` in the local
    `tile`, then each item writes 4 outputs out[64*g + 4*l + c] from `read` (c unrolled)."""
    body = body or f"out[64*g + 4*l + c] = 2 * {read} {{id=r, dep=w}}"
    knl = translator.make_kernel(
        "{[g, l, l2, c]: 0 <= g < ng and 0 <= l < 16 and 0 <= l2 < %d and 0 <= c < 4%s}"
        % (size, domain_extra),
        [f"{stage} {{id=w}}", body],
        [GlobalArg("a", dtype, shape="64*ng + 64"), GlobalArg("out", dtype, shape="64*ng"),
         TemporaryVariable("tile", dtype, shape=(size,), address_space="local"), "..."])
    knl = transforms.split_iname(knl, "l2", 16, inner_tag="l.0")
    return transforms.tag_inames(knl, "g:g.0, l:l.0, c:unr")


def _run(knl, ctx, queue, dtype=np.float32, ng: int = 3):
    a = np.arange(64 * ng + 64, dtype=dtype) * 3 - 7
    out = np.zeros(64 * ng, dtype)
    got = translator.compile(knl, ctx)(queue, a=a, out=out, ng=np.int32(ng))["out"]
    return a, got


def _vector_decls(code: str) -> list[str]:
    return re.findall(r"(\w+) const _tr_vl\d+ = \*\(__local \w+ const \*\)&tile\[([^\]]*)\];",
                      code)


def test_consecutive_aligned_reads_become_one_float4(ctx, queue):
    knl = _kernel("tile[4*(15 - l) + c]")
    code = generate_code(knl).device_code
    assert _vector_decls(code) == [("float4", "-4 * l + 60")]
    assert "__local float tile[64] __attribute__((aligned(16)));" in code
    assert re.search(r"out\[[^\]]*\] = 2 \* _tr_vl0\.s3;", code)
    a, got = _run(knl, ctx, queue)
    want = 2 * a[:192].reshape(3, 16, 4)[:, ::-1, :].reshape(-1)
    assert np.array_equal(got, want)


def test_doubles_become_double2(ctx, queue):
    knl = _kernel("tile[4*l + c]", dtype=np.float64)
    code = generate_code(knl).device_code
    assert _vector_decls(code) == [("double2", "4 * l"), ("double2", "4 * l + 2")]
    a, got = _run(knl, ctx, queue, np.float64)
    assert np.array_equal(got, 2 * a[:192])


@pytest.mark.parametrize("read, why", [
    ("tile[2*l + c]", "2*l is a multiple of 4 only for even l: not proved"),
    ("tile[4*l + c + 1]", "the aligned groups 4l..4l+3 and 4l+4..4l+7 are only partly read"),
    ("tile[8*(l // 2) + 2*c]", "not consecutive"),
])
def test_unproved_or_scattered_reads_stay_scalar(ctx, queue, read, why):
    knl = _kernel(read, size=68 if "+ 1" in read else 64,
                  stage="tile[l2] = a[64*g + l2]")
    code = generate_code(knl).device_code
    assert "_tr_vl" not in code, why
    assert "aligned(16)" not in code
    a, got = _run(knl, ctx, queue)
    l, c = np.meshgrid(np.arange(16), np.arange(4), indexing="ij")
    index = eval(read[5:-1], {"l": l, "c": c})   # the subscript, for every (l, c)
    want = np.concatenate([2 * a[64 * g + index].reshape(-1) for g in range(3)])
    assert np.array_equal(got, want)


def test_array_written_in_the_nest_stays_scalar(ctx, queue):
    knl = translator.make_kernel(
        "{[g, l, l2, c]: 0 <= g < ng and 0 <= l < 16 and 0 <= l2 < 64 and 0 <= c < 4}",
        ["tile[l2] = a[64*g + l2] {id=w}",
         "tile[4*l + c] = 2 * tile[4*l + c] {id=d, dep=w}",
         "out[64*g + 4*l + c] = tile[4*l + c] {id=r, dep=d}"],
        [GlobalArg("a", np.float32, shape="64*ng + 64"),
         GlobalArg("out", np.float32, shape="64*ng"),
         TemporaryVariable("tile", np.float32, shape=(64,), address_space="local"), "..."])
    knl = transforms.split_iname(knl, "l2", 16, inner_tag="l.0")
    knl = transforms.tag_inames(knl, "g:g.0, l:l.0, c:unr")
    code = generate_code(knl).device_code
    # d and r share the unrolled nest over c: tile is written there, so no vector
    assert "_tr_vl" not in code
    a, got = _run(knl, ctx, queue)
    assert np.array_equal(got, 2 * a[:192])


def test_guarded_copy_keeps_scalar_reads(ctx, queue):
    """With a partial last group the reads are guarded: the full-tile copy (of the loop over
    t) gets the vector, the general copy keeps scalar reads under their guards."""
    knl = translator.make_kernel(
        "{[g, l, l2, c, t]: 0 <= g < ng and 0 <= l < 16 and 0 <= l2 < 64 and 0 <= c < 4"
        " and 64*g + 4*l + c < n and 64*g + l2 < n and 0 <= t < 2}",
        ["tile[l2] = a[64*g + l2] {id=w}",
         "out[64*g + 4*l + c] = out[64*g + 4*l + c] + (t + 1) * tile[4*l + c] {id=r, dep=w}"],
        [GlobalArg("a", np.float32, shape="n"), GlobalArg("out", np.float32, shape="n"),
         TemporaryVariable("tile", np.float32, shape=(64,), address_space="local"), "..."])
    knl = transforms.split_iname(knl, "l2", 16, inner_tag="l.0")
    knl = transforms.tag_inames(knl, "g:g.0, l:l.0, c:unr")
    code = generate_code(knl).device_code
    loop = code[code.index("barrier("):]
    full, general = loop.split("else", 1)
    assert "full tile" in full and _vector_decls(full) == [("float4", "4 * l")]
    assert "_tr_vl" not in general and "(t + 1) * tile[4 * l + 3]" in general
    n, ng = 150, 3
    a = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    got = translator.compile(knl, ctx)(queue, a=a, out=out, n=np.int32(n),
                                       ng=np.int32(ng))["out"]
    assert np.array_equal(got, 3 * a)


def test_linear_form():
    i, j = p.Variable("i"), p.Variable("j")
    assert linear_form(p.Sum((p.Product((4, p.Sum((i, 2)))), j, 3))) == {"i": 4, "j": 1, "": 11}
    assert linear_form(p.Sum((i, p.Product((-1, i))))) == {}
    with pytest.raises(NotLinear):
        linear_form(p.Product((i, j)))
    with pytest.raises(NotLinear):
        linear_form(p.FloorDiv(i, 2))
