"""Parallel reductions: recognition (translator.analysis.reductions) and code generation
(translator.codegen.parallel_reductions), run on the CPU OpenCL device against numpy."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
import translator
from translator.analysis.legality import check_kernel
from translator.analysis.reductions import match_update, recognize_parallel_reductions
from translator.diagnostics import CodegenError, LegalityError
from translator.ir.expr import Reduction
from translator.ir.parse import GlobalArg, parse_expression

RNG = np.random.default_rng(7)


def _vector_kernel(instruction: str, dtype, *, out: str = "s", out_dtype=None):
    return translator.make_kernel(
        "{[i]: 0<=i<n}", instruction,
        [GlobalArg("a", dtype, shape="n"), GlobalArg(out, out_dtype or dtype, shape=(1,)),
         "..."])


def _groups(knl, size: int = 64):
    return transforms.split_iname(knl, "i", size, outer_tag="g.0", inner_tag="l.0")


def _one_group(knl, size: int = 64):
    return transforms.split_iname(knl, "i", size, inner_tag="l.0")


def _data(n: int, dtype) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return RNG.uniform(-1, 1, n).astype(dt)
    return RNG.integers(-50, 50, n).astype(dt)


def _run(knl, ctx, queue, **inputs) -> dict:
    return translator.compile(knl, ctx)(queue, **inputs)


# ---------------------------------------------------------------------------------------------
# code generation: explicit reductions of the kernel language

@pytest.mark.parametrize("n", [1, 5, 64, 1000])
def test_sum_in_one_work_group(ctx, queue, n):
    knl = _one_group(_vector_kernel("s[0] = sum(i, a[i])", np.float64))
    a = _data(n, np.float64)
    out = _run(knl, ctx, queue, a=a)
    np.testing.assert_allclose(out["s"], [a.sum()], rtol=1e-12, atol=1e-14)


def test_work_group_tree_uses_local_memory_and_barriers():
    code = translator.generate_code(_one_group(_vector_kernel("s[0] = sum(i, a[i])",
                                                              np.float64), 48))
    text = code.device_code
    assert "__local double _tr_red[48];" in text
    # one before each of the 6 halvings (32, 16, ..., 1) and one before the result is read
    assert text.count("barrier(CLK_LOCAL_MEM_FENCE)") == 7
    assert "_tr_lane0 < 16" in text                             # 48 is not a power of two
    assert "atomic" not in text and code.local_size == (48,)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("n", [3, 1000])
def test_sum_across_work_groups_is_atomic(ctx, queue, dtype, n):
    knl = _groups(_vector_kernel("s[0] = s[0] + sum(i, a[i])", dtype))
    a = _data(n, dtype)
    start = np.array([3], dtype=dtype)
    out = _run(knl, ctx, queue, a=a, s=start)
    expect = start[0] + a.astype(np.float64).sum()
    if np.dtype(dtype).kind == "f":
        rtol = 1e-5 if dtype == np.float32 else 1e-12
        np.testing.assert_allclose(out["s"], [expect], rtol=rtol, atol=1e-5)
    else:
        assert out["s"].tolist() == [int(expect)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("op", ["max", "min"])
def test_max_of_abs_across_groups_is_exact(ctx, queue, dtype, op):
    knl = _groups(_vector_kernel(f"m[0] = {op}(m[0], {op}(i, abs(a[i])))", dtype, out="m"))
    a = _data(777, dtype)
    start = np.array([0 if op == "max" else 1000], dtype=dtype)
    out = _run(knl, ctx, queue, a=a, m=start)
    ref = max(start[0], np.abs(a).max()) if op == "max" else min(start[0], np.abs(a).min())
    assert out["m"].tolist() == [ref]


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_product_across_groups(ctx, queue, dtype):
    knl = _groups(_vector_kernel("p[0] = p[0] * product(i, a[i])", dtype, out="p"), 16)
    a = np.ones(300, dtype=dtype)
    a[[3, 50, 120, 299]] = [2, -1, 2, -3]
    out = _run(knl, ctx, queue, a=a, p=np.array([5], dtype=dtype))
    assert out["p"].tolist() == [5 * np.prod(a)]


def test_group_axis_only(ctx, queue):
    knl = transforms.tag_inames(_vector_kernel("s[0] = s[0] + sum(i, a[i])", np.int64), "i:g.0")
    a = _data(50, np.int64)
    assert _run(knl, ctx, queue, a=a, s=np.zeros(1, np.int64))["s"].tolist() == [a.sum()]


def _matrix_kernel(instruction: str, dtype=np.float64):
    return translator.make_kernel(
        "{[i,j]: 0<=i<m and 0<=j<n}", instruction,
        [GlobalArg("a", dtype, shape="m,n"), GlobalArg("r", dtype, shape="m"), "..."])


@pytest.mark.parametrize("rows_on", ["g.0", "l.1"])
def test_row_sums(ctx, queue, rows_on):
    knl = _matrix_kernel("r[i] = sum(j, a[i, j])")
    knl = transforms.split_iname(knl, "j", 16, inner_tag="l.0")
    if rows_on == "g.0":
        knl = transforms.tag_inames(knl, "i:g.0")
    else:
        knl = transforms.split_iname(knl, "i", 4, outer_tag="g.0", inner_tag="l.1")
    a = _data(7 * 37, np.float64).reshape(7, 37)
    out = _run(knl, ctx, queue, a=a)
    np.testing.assert_allclose(out["r"], a.sum(axis=1), rtol=1e-12, atol=1e-14)


def test_row_sums_across_two_local_axes(ctx, queue):
    """The reduction crosses l.0 and l.1 (a 16 x 4 tree), rows on the groups."""
    knl = translator.make_kernel(
        "{[i,j,k]: 0<=i<m and 0<=j<16 and 0<=k<3}", "r[i] = r[i] + sum([j, k], b[i, k, j])",
        [GlobalArg("b", np.float64, shape="m,3,16"), GlobalArg("r", np.float64, shape="m"),
         "..."])
    knl = transforms.tag_inames(knl, "i:g.0, j:l.0, k:l.1")
    b = _data(5 * 48, np.float64).reshape(5, 3, 16)
    out = _run(knl, ctx, queue, b=b, r=np.ones(5))
    np.testing.assert_allclose(out["r"], 1 + b.sum(axis=(1, 2)), rtol=1e-12)


def test_other_local_axis_of_the_kernel_keeps_its_rows(ctx, queue):
    """A statement on l.1 makes the work group 2-D; the reduction over l.0 runs in every row
    and one work item writes the result."""
    knl = translator.make_kernel(
        "{[i,k]: 0<=i<n and 0<=k<4}", ["c[k] = 2*b[k]", "s[0] = sum(i, a[i])"],
        [GlobalArg("a", np.float32, shape="n"), GlobalArg("b", np.float32, shape=(4,)),
         GlobalArg("c", np.float32, shape=(4,)), GlobalArg("s", np.float32, shape=(1,)),
         "..."])
    knl = transforms.tag_inames(_one_group(knl, 32), "k:l.1")
    a, b = _data(100, np.float32), _data(4, np.float32)
    out = _run(knl, ctx, queue, a=a, b=b)
    np.testing.assert_allclose(out["s"], [a.sum()], rtol=1e-5)
    np.testing.assert_array_equal(out["c"], 2 * b)


def test_reduction_inside_a_sequential_loop(ctx, queue):
    """A tree per iteration of an outer sequential loop (barriers inside the loop)."""
    knl = _matrix_kernel("r[i] = r[i] + sum(j, a[i, j])")
    knl = transforms.split_iname(knl, "j", 16, outer_tag="g.0", inner_tag="l.0")
    a = _data(6 * 40, np.float64).reshape(6, 40)
    out = _run(knl, ctx, queue, a=a, r=np.zeros(6))
    np.testing.assert_allclose(out["r"], a.sum(axis=1), rtol=1e-12, atol=1e-14)


# ---------------------------------------------------------------------------------------------
# code generation: what cannot run in parallel is refused with a reason

def test_group_reduction_must_update_in_place():
    knl = _groups(_vector_kernel("s[0] = sum(i, a[i])", np.float64))
    with pytest.raises(CodegenError, match="must update a global array element in place"):
        translator.generate_code(knl)


def test_group_reduction_destination_used_elsewhere():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["s[0] = 0 {id=z}", "s[0] = s[0] + sum(i, a[i]) {dep=z}"],
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("s", np.float64, shape=(1,)), "..."])
    with pytest.raises(CodegenError, match="work groups cannot wait for each other"):
        translator.generate_code(_groups(knl))


def test_barriers_in_loops_of_varying_length_are_refused():
    knl = translator.make_kernel(
        "{[j,k]: 0<=j<16 and 0<=k<=j}", "s[k] = s[k] + sum(j, a[j, k])",
        [GlobalArg("a", np.float64, shape="16,16"), GlobalArg("s", np.float64, shape=(16,))])
    knl = transforms.tag_inames(knl, "j:l.0")
    with pytest.raises(CodegenError, match="depend on local iname"):
        translator.generate_code(knl)


def test_atomics_of_small_integers_are_refused():
    knl = _groups(_vector_kernel("s[0] = s[0] + sum(i, a[i])", np.int16))
    with pytest.raises(CodegenError, match="atomic updates of int16"):
        translator.generate_code(knl)


# ---------------------------------------------------------------------------------------------
# recognition

def _recognised(knl):
    new = recognize_parallel_reductions(knl)
    check_kernel(new)
    return new


@pytest.mark.parametrize("text, op", [
    ("s[0] + x", "sum"), ("x + s[0]", "sum"), ("s[0] - x", "sum"), ("s[0]*x", "product"),
    ("max(s[0], x)", "max"), ("min(x, s[0])", "min"),
    ("if(s[0] > x, s[0], x)", "max"), ("if(x >= s[0], x, s[0])", "max"),
    ("if(s[0] < x, s[0], x)", "min"), ("if(x > s[0], s[0], x)", "min"),
])
def test_update_forms(text, op):
    update = match_update(parse_expression(text), parse_expression("s[0]"))
    assert update is not None and update.operation == op


@pytest.mark.parametrize("text", ["s[0] + s[0]", "2*s[0] + x", "max(s[0], s[0], x)",
                                  "if(s[0] > x, x, y)", "x"])
def test_not_an_update(text):
    assert match_update(parse_expression(text), parse_expression("s[0]")) is None


@pytest.mark.parametrize("mapping", [_groups, _one_group])
def test_dot_product_is_recognised(ctx, queue, mapping):
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", "s[0] = s[0] + a[i]*b[i]",
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("b", np.float64, shape="n"),
         GlobalArg("s", np.float64, shape=(1,)), "..."])
    knl = mapping(knl)
    with pytest.raises(LegalityError, match="races"):
        check_kernel(knl)
    new = _recognised(knl)
    stmt = new.statements[0]
    assert isinstance(stmt.expression.children[1], Reduction) and not stmt.within_inames
    a, b = _data(333, np.float64), _data(333, np.float64)
    out = _run(new, ctx, queue, a=a, b=b, s=np.array([0.5]))
    np.testing.assert_allclose(out["s"], [0.5 + a @ b], rtol=1e-12)


def test_predicated_updates_are_recognised(ctx, queue):
    """``m = e if e > m`` is a max; a predicate over the loop moves into the term."""
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}",
        ["m[0] = a[i] {if=a[i] > m[0]}", "c[0] = c[0] + 1 {if=a[i] > 0}",
         "lo[0] = if(a[i] < lo[0], a[i], lo[0])"],
        [GlobalArg("a", np.float32, shape="n"), GlobalArg("m", np.float32, shape=(1,)),
         GlobalArg("lo", np.float32, shape=(1,)), GlobalArg("c", np.int32, shape=(1,)),
         "..."])
    new = _recognised(_groups(knl, 32))
    assert all(not s.within_inames and not s.predicates for s in new.statements)
    a = _data(500, np.float32)
    out = _run(new, ctx, queue, a=a, m=np.array([-5], np.float32),
               lo=np.array([5], np.float32), c=np.zeros(1, np.int32))
    assert out["m"].tolist() == [a.max()] and out["lo"].tolist() == [a.min()]
    assert out["c"].tolist() == [int((a > 0).sum())]


def test_sequential_loops_private_to_the_statement_join_the_reduction(ctx, queue):
    knl = _matrix_kernel("t[0] = t[0] + a[i, j]")
    knl = transforms.split_iname(knl, "j", 8, inner_tag="l.0")
    new = _recognised(knl)
    red = new.statements[0].expression.children[1]
    assert set(red.inames) == {"i", "j_inner", "j_outer"}
    a = _data(5 * 20, np.float64).reshape(5, 20)
    out = _run(new, ctx, queue, a=a, t=np.zeros(1))
    np.testing.assert_allclose(out["t"], [a.sum()], rtol=1e-12)


def test_existing_reduction_merges():
    knl = _matrix_kernel("t[0] = t[0] + sum(j, a[i, j])")
    new = _recognised(_groups(knl, 4))
    red = new.statements[0].expression.children[1]
    assert set(red.inames) == {"i_inner", "i_outer", "j"} and not isinstance(red.expr, Reduction)


def test_sequential_accumulation_is_untouched():
    knl = _vector_kernel("s[0] = s[0] + a[i]", np.float64)
    assert recognize_parallel_reductions(knl) is knl
    mapped = _groups(_vector_kernel("b[i] = 2*a[i]", np.float64, out="b"))
    assert recognize_parallel_reductions(mapped) is mapped


def test_prefix_sum_is_not_a_reduction():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["s[0] = s[0] + a[i] {id=acc}", "p[i] = s[0] {dep=acc}"],
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("s", np.float64, shape=(1,)),
         GlobalArg("p", np.float64, shape="n"), "..."])
    knl = _one_group(knl)
    assert recognize_parallel_reductions(knl) is knl
    with pytest.raises(LegalityError, match="races"):
        check_kernel(knl)


def test_accumulator_read_by_its_term_is_not_a_reduction():
    knl = _groups(_vector_kernel("s[0] = s[0] + a[i]*s[0]", np.float64))
    assert recognize_parallel_reductions(knl) is knl


def test_initialisation_in_the_kernel_blocks_a_group_reduction():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["s[0] = 0 {id=z}", "s[0] = s[0] + a[i] {id=acc, dep=z}"],
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("s", np.float64, shape=(1,)), "..."])
    with pytest.raises(LegalityError, match="work groups cannot wait") as info:
        recognize_parallel_reductions(_groups(knl))
    assert "inner_tag" in info.value.detail
    assert recognize_parallel_reductions(_one_group(knl)) is not knl


def test_other_elements_of_the_accumulator_may_be_used():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["s[1] = 0 {id=z}", "s[0] = s[0] + a[i] {dep=z}"],
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("s", np.float64, shape=(2,)), "..."])
    new = _recognised(_groups(knl))
    assert isinstance(new.statements[1].expression.children[1], Reduction)


# ---------------------------------------------------------------------------------------------
# automatic mapping: order-independent reductions only

def _auto(knl):
    from translator.automap import auto_map
    return auto_map(knl)


def _pipeline_run(knl, ctx, queue, **inputs) -> dict:
    from translator.pipeline import KERNEL_STAGES
    for _, stage in KERNEL_STAGES:
        knl = stage(knl)
    return _run(knl, ctx, queue, **inputs)


def test_integer_sum_and_maximum_are_mapped_across_groups(ctx, queue):
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["s[0] = s[0] + a[i]*a[i]", "m[0] = max(m[0], b[i])"],
        [GlobalArg("a", np.int32, shape="n"), GlobalArg("b", np.float32, shape="n"),
         GlobalArg("s", np.int32, shape=(1,)), GlobalArg("m", np.float32, shape=(1,)), "..."])
    mapped, mapping = _auto(knl)
    assert mapping.pragmas == ('split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")',)
    a, b = _data(1000, np.int32), _data(1000, np.float32)
    out = _pipeline_run(mapped, ctx, queue, a=a, b=b, s=np.array([7], np.int32),
                        m=np.array([-9], np.float32))
    assert out["s"].tolist() == [7 + int((a.astype(np.int64) ** 2).sum())]
    assert out["m"].tolist() == [b.max()]


def test_initialisation_in_the_region_keeps_the_reduction_in_one_group(ctx, queue):
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["c[0] = 0 {id=z}", "c[0] = c[0] + 1 {dep=z, if=a[i] > 0}"],
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("c", np.int64, shape=(1,)), "..."])
    mapped, mapping = _auto(knl)
    assert mapping.pragmas == ('split_iname("i", 256, inner_tag="l.0")',)
    a = _data(3000, np.float64)
    out = _pipeline_run(mapped, ctx, queue, a=a, c=np.array([5], np.int64))
    assert out["c"].tolist() == [int((a > 0).sum())]


def test_floating_point_sum_stays_sequential():
    from translator.diagnostics import TranslatorWarning
    knl = _vector_kernel("s[0] = s[0] + a[i]", np.float64)
    with pytest.warns(TranslatorWarning, match="floating-point reduction") as record:
        mapped, mapping = _auto(knl)
    assert mapped is knl and not mapping.pragmas
    assert mapping.reason.startswith("mapping i to g.0 races")
    assert 'split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")' in str(record[0].message)


def test_reductions_outside_loops_are_mapped_when_exact(ctx, queue):
    from translator.diagnostics import TranslatorWarning
    knl = translator.make_kernel(
        "{[i,j,k]: 0<=i,j,k<n}", ["c[0] = sum(i, if(a[i] > 0, 1, 0))",
                                  "m[0] = max(j, abs(a[j]))", "s[0] = sum(k, a[k])"],
        [GlobalArg("a", np.float64, shape="n"), GlobalArg("c", np.int32, shape=(1,)),
         GlobalArg("m", np.float64, shape=(1,)), GlobalArg("s", np.float64, shape=(1,)),
         "..."])
    mapped, mapping = _auto(knl)
    assert len(mapping.pragmas) == 2 and all('inner_tag="l.0"' in p for p in mapping.pragmas)
    a = _data(700, np.float64)
    out = _pipeline_run(mapped, ctx, queue, a=a)
    assert out["c"].tolist() == [int((a > 0).sum())] and out["m"].tolist() == [abs(a).max()]
    assert out["s"].tolist() == [sum(a.tolist())]      # sequential: the loop's exact order
    shared = translator.make_kernel("{[i]: 0<=i<n}", ["s[0] = sum(i, a[i])",
                                                       "m[0] = max(i, a[i])"])
    with pytest.warns(TranslatorWarning, match="would reorder a floating-point reduction"):
        assert not _auto(shared)[1].pragmas     # one split would serve both
