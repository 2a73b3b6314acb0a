"""Code generation details, each checked on the generated text and by running on PoCL."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
import translator
from translator.codegen.opencl import generate_code
from translator.diagnostics import CodegenError, SchedulingError, SourceSpan
from translator.ir.parse import GlobalArg, TemporaryVariable, ValueArg


def run(knl, ctx, queue, **kwargs):
    return translator.compile(knl, ctx)(queue, **kwargs)


def ints(*shape, low=-20, high=21, seed=0):
    return np.random.default_rng(seed).integers(low, high, size=shape).astype(np.int32)


# ---------------------------------------------------------------------------------------------
# integer division semantics

def test_floor_division_and_modulo_with_negative_operands(ctx, queue):
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}",
        ["q[i] = a[i] // b[i]", "r[i] = a[i] % b[i]", "s[i] = (i - 5) // 4 + (i - 5) % 4",
         "t[i] = i // 4"],
        [GlobalArg("a", np.int32, shape="n"), GlobalArg("b", np.int32, shape="n"), "..."])
    code = generate_code(knl).device_code
    assert "_tr_floordiv_int32(a[i], b[i])" in code
    assert "i / 4" in code            # i >= 0 is proved by the loop bounds
    a = ints(40)
    b = ints(40, seed=1)
    b[b == 0] = 3
    out = run(knl, ctx, queue, a=a, b=b)
    i = np.arange(40)
    np.testing.assert_array_equal(out["q"], a // b)
    np.testing.assert_array_equal(out["r"], a % b)
    np.testing.assert_array_equal(out["s"], (i - 5) // 4 + (i - 5) % 4)
    np.testing.assert_array_equal(out["t"], i // 4)


def test_float_modulo_has_sign_of_divisor(ctx, queue):
    knl = translator.make_kernel("{[i]: 0<=i<n}", "r[i] = x[i] % y[i]",
                                 [GlobalArg("x", np.float64, shape="n"),
                                  GlobalArg("y", np.float64, shape="n"), "..."])
    rng = np.random.default_rng(0)
    x = rng.uniform(-10, 10, 30)
    y = rng.uniform(1, 3, 30) * rng.choice([-1, 1], 30)
    np.testing.assert_allclose(run(knl, ctx, queue, x=x, y=y)["r"], np.mod(x, y), rtol=1e-12)


def test_truncating_quotient_and_rem_from_source_languages(ctx, queue):
    knl = translator.make_kernel("{[i]: 0<=i<n}", ["q[i] = a[i] / b[i]", "r[i] = rem(a[i], b[i])"],
                                 [GlobalArg("a", np.int32, shape="n"),
                                  GlobalArg("b", np.int32, shape="n"), "..."])
    code = generate_code(knl).device_code
    assert "a[i] / b[i]" in code and "a[i] % b[i]" in code
    a, b = ints(40), ints(40, seed=2)
    b[b == 0] = -3
    out = run(knl, ctx, queue, a=a, b=b)
    np.testing.assert_array_equal(out["q"], np.trunc(a / b).astype(np.int32))
    np.testing.assert_array_equal(out["r"], np.fmod(a, b))


# ---------------------------------------------------------------------------------------------
# constants and types

def test_typed_constants_print_with_their_type(ctx, queue):
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}",
        ["y[i] = x[i] * float32(0.1) + 2.5", "z[i] = i + int64(3000000000)"],
        [GlobalArg("x", np.float32, shape="n"), "..."])
    code = generate_code(knl).device_code
    assert "x[i] * 0.1f + 2.5f" in code
    assert "3000000000L" in code
    x = np.linspace(-1, 1, 10).astype(np.float32)
    out = run(knl, ctx, queue, x=x)
    assert out["y"].dtype == np.float32 and out["z"].dtype == np.int64
    np.testing.assert_array_equal(out["y"], x * np.float32(0.1) + np.float32(2.5))
    np.testing.assert_array_equal(out["z"], np.arange(10) + 3000000000)


def test_math_functions(ctx, queue):
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}",
        ["o1[i] = abs(k[i]) - 5", "o2[i] = sqrt(x[i]*x[i]) + abs(x[i])",
         "o3[i] = max(k[i], 2, i) + min(k[i], 0)", "o4[i] = pow(x[i], 3) + fmod(x[i], 0.3)",
         "o5[i] = copysign(round(x[i] * 3), -1.0) + atan2(x[i], 2.0) + floor(x[i])",
         "o6[i] = max(x[i], 0.25)"],
        [GlobalArg("x", np.float64, shape="n"), GlobalArg("k", np.int32, shape="n"), "..."])
    code = generate_code(knl).device_code
    assert "(int) abs(k[i]) - 5" in code and "fabs(x[i])" in code and "fmax(x[i], 0.25)" in code
    x = np.linspace(-2, 2, 21)
    k = ints(21)
    out = run(knl, ctx, queue, x=x, k=k)
    i = np.arange(21)
    np.testing.assert_array_equal(out["o1"], np.abs(k) - 5)
    np.testing.assert_allclose(out["o2"], 2 * np.abs(x))
    np.testing.assert_array_equal(out["o3"], np.maximum(np.maximum(k, 2), i) + np.minimum(k, 0))
    np.testing.assert_allclose(out["o4"], x**3 + np.fmod(x, 0.3), atol=1e-12)
    want5 = np.copysign(np.round(x * 3), -1.0) + np.arctan2(x, 2.0) + np.floor(x)
    # OpenCL rounds halves away from zero, numpy to even: compare away from the halves.
    ok = np.abs(x * 3 - np.round(x * 3)) != 0.5
    np.testing.assert_allclose(out["o5"][ok], want5[ok], atol=1e-12)
    np.testing.assert_allclose(out["o6"], np.maximum(x, 0.25))


# ---------------------------------------------------------------------------------------------
# loops

def test_unrolled_loop_has_one_copy_per_value(ctx, queue):
    knl = translator.make_kernel("{[i,k]: 0<=i<n and 0<=k<3}", "out[i,k] = a[i] * (k + 1)",
                                 [GlobalArg("a", np.float64, shape="n"), "..."])
    knl = transforms.tag_inames(knl, "k:unr")
    code = generate_code(knl).device_code
    assert "for (int k" not in code
    for k in range(3):
        assert f"out[(long) i * 3 + {k}] = a[i] * ({k} + 1);" in code   # n*3 may pass 2**31
    a = np.arange(5.0)
    np.testing.assert_array_equal(run(knl, ctx, queue, a=a)["out"], a[:, None] * [1, 2, 3])


def test_unrolling_a_parametric_loop_is_an_error():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 1.0")
    knl = transforms.tag_inames(knl, "i:unr")
    with pytest.raises(CodegenError, match="unrolled but its number of values is not a constant"):
        generate_code(knl)


def test_non_constant_local_size_is_an_error():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 1.0")
    knl = transforms.tag_inames(knl, "i:l.0")
    with pytest.raises(CodegenError, match=r"'i' is tagged l\.0 .* not a constant"):
        generate_code(knl)


def test_dependency_cycle_is_an_error():
    knl = translator.make_kernel("{[i]: 0<=i<n}",
                                 ["a[i] = b[i] {id=s1, dep=s2}", "b[i] = a[i] {id=s2, dep=s1}"],
                                 [GlobalArg("a", np.float32, shape="n"),
                                  GlobalArg("b", np.float32, shape="n"), "..."])
    with pytest.raises(SchedulingError, match="dependency cycle between statements s1 -> s2 -> s1"):
        generate_code(knl)


def test_loop_is_split_when_dependencies_force_it(ctx, queue):
    knl = translator.make_kernel(
        "{[i, j]: 0<=i<n and 0<=j<n}",
        ["a[i] = i {id=first}", "<> s = a[3] {id=mid, dep=first}",
         "b[j] = a[j] + s {id=last, dep=mid}"],
        [GlobalArg("a", np.int32, shape="n"), GlobalArg("b", np.int32, shape="n"), "..."])
    code = generate_code(knl).device_code
    assert code.index("a[i] = i") < code.index("s = a[3]") < code.index("b[j] =")
    out = run(knl, ctx, queue, a=np.zeros(6, np.int32))
    np.testing.assert_array_equal(out["b"], np.arange(6) + 3)


def test_loop_priority_sets_the_nesting():
    knl = translator.make_kernel("{[i,j]: 0<=i,j<n}", "out[i,j] = 1.0")
    plain = generate_code(knl).device_code
    assert plain.index("int i =") < plain.index("int j =")
    swapped = generate_code(transforms.prioritize_loops(knl, "j,i")).device_code
    assert swapped.index("int j =") < swapped.index("int i =")


def test_ilp_seq_is_the_innermost_loop():
    knl = translator.make_kernel("{[i,j]: 0<=i,j<n}", "out[i,j] = 1.0")
    code = generate_code(transforms.tag_inames(knl, "i:ilp.seq")).device_code
    assert code.index("int j =") < code.index("int i =")


def test_l_auto_takes_a_free_local_axis():
    knl = translator.make_kernel("{[i,j]: 0<=i,j<16}", "out[i,j] = 1.0")
    knl = transforms.tag_inames(knl, "i:l.0, j:l.auto")
    code = generate_code(knl)
    assert "int const j = (int) get_local_id(1);" in code.device_code
    assert code.local_size == (16, 16)


# ---------------------------------------------------------------------------------------------
# memory

def test_local_temporary_gets_barriers(ctx, queue):
    knl = translator.make_kernel(
        "{[io, ii, t]: 0<=ii<16 and 0 <= 16*io + ii < n and 0<=t<3}",
        ["tile[ii] = a[16*io + ii] * (t + 1) {id=w}",
         "out[16*io + ii] = out[16*io + ii] + tile[15 - ii] {id=r, dep=w}"],
        [GlobalArg("a", np.float32, shape="n"), GlobalArg("out", np.float32, shape="n"),
         TemporaryVariable("tile", np.float32, shape=(16,), address_space="local"), "..."])
    knl = transforms.tag_inames(knl, "io:g.0, ii:l.0")
    code = generate_code(knl).device_code
    assert "__local float tile[16];" in code
    assert code.count("barrier(CLK_LOCAL_MEM_FENCE)") == 2   # RAW, and WAR across iterations
    a = np.arange(32, dtype=np.float32)
    out = run(knl, ctx, queue, a=a, out=np.zeros(32, np.float32))["out"]
    want = 6 * a.reshape(2, 16)[:, ::-1].reshape(-1)
    np.testing.assert_array_equal(out, want)


def test_nosync_removes_the_barrier():
    knl = translator.make_kernel(
        "{[ii]: 0<=ii<16}",
        ["tile[ii] = a[ii] {id=w}", "out[ii] = tile[15 - ii] {id=r, dep=w, nosync=w@local}"],
        [GlobalArg("a", np.float32, shape=16),
         TemporaryVariable("tile", np.float32, shape=(16,), address_space="local"), "..."])
    knl = transforms.tag_inames(knl, "ii:l.0")
    assert "barrier" not in generate_code(knl).device_code


def test_same_work_item_access_needs_no_barrier():
    knl = translator.make_kernel(
        "{[ii]: 0<=ii<16}", ["tile[ii] = a[ii] {id=w}", "out[ii] = tile[ii] {id=r, dep=w}"],
        [GlobalArg("a", np.float32, shape=16),
         TemporaryVariable("tile", np.float32, shape=(16,), address_space="local"), "..."])
    knl = transforms.tag_inames(knl, "ii:l.0")
    assert "barrier" not in generate_code(knl).device_code


def test_fortran_order_arrays(ctx, queue):
    knl = translator.make_kernel("{[i,j]: 0<=i<n and 0<=j<m}", "b[i,j] = a[i,j] + i",
                                 [GlobalArg("a", np.float64, shape="n,m", order="F"),
                                  GlobalArg("b", np.float64, shape="n,m", order="F"), "..."])
    code = generate_code(knl)
    assert "a[i + (long) j * n]" in code.device_code   # n*m may pass 2**31: 64-bit
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(run(knl, ctx, queue, a=a)["b"], a + np.arange(3)[:, None])


def test_params_sizes_and_directions():
    knl = translator.make_kernel(
        "{[i]: 0<=i<n}", ["y[i] = y[i] + a * x[i]", "z[i + 1] = x[i]"],
        [ValueArg("a", np.float32), GlobalArg("x", np.float32, shape="n"),
         GlobalArg("y", np.float32, shape="n"), GlobalArg("z", np.float32, shape="n + 1"),
         "..."])
    params = {prm.name: prm for prm in generate_code(knl).params}
    assert [prm.kind for prm in generate_code(knl).params][:3] == ["array"] * 3
    assert params["y"].is_input and params["y"].is_output
    assert params["x"].is_input and not params["x"].is_output
    assert str(params["z"].size) == "n + 1"


def test_line_directives_and_predicates(ctx, queue):
    span = SourceSpan(file="src.f90", line=12, col=3)
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 1 {if=flag}",
                                 [GlobalArg("out", np.int32, shape="n"), ValueArg("flag", np.int32),
                                  "..."])
    from dataclasses import replace
    knl = replace(knl, statements=tuple(replace(s, span=span) for s in knl.statements))
    code = generate_code(knl).device_code
    assert '#line 12 "src.f90"' in code and "if (flag)" in code
    assert run(knl, ctx, queue, n=3, flag=0, out=np.full(3, 7, np.int32))["out"].tolist() == [7] * 3


def test_reductions_max_over_ints_and_nested(ctx, queue):
    knl = translator.make_kernel(
        "{[i,j,k]: 0<=i<n and 0<=j<m and 0<=k<m}",
        ["mx[i] = max(j, a[i,j])", "s[i] = sum(j, a[i,j] * sum(k, a[i,k]))"],
        [GlobalArg("a", np.int32, shape="n,m"), "..."])
    a = ints(4, 5, low=-100, high=-50)
    out = run(knl, ctx, queue, a=a)
    np.testing.assert_array_equal(out["mx"], a.max(axis=1))
    np.testing.assert_array_equal(out["s"], a.sum(axis=1) * a.sum(axis=1))


def test_reduction_over_a_local_iname_is_a_work_group_tree(ctx, queue):
    knl = translator.make_kernel("{[i,k]: 0<=i<n and 0<=k<16}", "out[i] = sum(k, a[i,k])",
                                 [GlobalArg("a", np.float32, shape="n,16"), "..."])
    knl = transforms.tag_inames(knl, "k:l.0")
    code = generate_code(knl)
    assert "__local" in code.device_code and "barrier(CLK_LOCAL_MEM_FENCE)" in code.device_code
    a = np.random.default_rng(0).random((5, 16), dtype=np.float32)
    out = translator.compile(knl, ctx)(queue, a=a)["out"]
    np.testing.assert_allclose(out, a.sum(axis=1), rtol=1e-5)


def test_assumptions_remove_guards():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = 2*x[i]",
                                 [GlobalArg("x", np.float32, shape="n"), "..."])
    knl = transforms.assume(knl, "n mod 16 = 0 and n >= 16")
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    code = generate_code(knl)
    assert "if (" not in code.device_code
    from translator.codegen.cexpr import to_c
    assert to_c(code.global_size[0]) == "(n + 15) / 16 * 16"


def test_fortran_like_kernel(ctx, queue):
    """1-based loops shifted into 0-based subscripts, F-order arrays, a scalar result written
    as a 1-element array, integer Quotient and rem."""
    knl = translator.make_kernel(
        "{[i,j]: 1<=i<=n and 1<=j<=m}",
        ["b[i-1, j-1] = a[i-1, j-1] * rem(i, 3) + (j - 4) / 2 {id=w}",
         "s[0] = s[0] + a[i-1, j-1] {id=acc}"],
        [GlobalArg("a", np.float64, shape="n,m", order="F"),
         GlobalArg("b", np.float64, shape="n,m", order="F"),
         GlobalArg("s", np.float64, shape=1), "..."])
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.0", inner_tag="l.0",
                                 within="id:w")
    a = np.asfortranarray(np.random.default_rng(3).uniform(-1, 1, (13, 5)))
    out = run(knl, ctx, queue, a=a, s=np.zeros(1))
    i = np.arange(1, 14)[:, None]
    j = np.arange(1, 6)[None, :]
    np.testing.assert_allclose(out["b"], a * (i % 3) + np.trunc((j - 4) / 2))
    np.testing.assert_allclose(out["s"], [a.sum()])


def test_global_barrier_across_groups_is_an_error():
    from translator.ir.statements import BarrierInstruction
    knl = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = 2*x[i]",
                                 [GlobalArg("x", np.float32, shape="n"), "..."])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    from dataclasses import replace
    bar = BarrierInstruction(id="b", synchronization_kind="global")
    knl = replace(knl, statements=(*knl.statements, bar))
    with pytest.raises(CodegenError, match="global barrier cannot synchronize work groups"):
        generate_code(knl)


def test_tiled_matmul_with_local_prefetch(ctx, queue):
    """Local-memory tiles filled cooperatively: barriers after the fills and before the next
    iteration's fills, and one after the loop (h75: PoCL); guards where the sizes are not
    multiples of the tile."""
    knl = translator.make_kernel(
        "{[io,ii,jo,ji,ko,ki]: 0<=ii,ji,ki<16 and 0<=16*io+ii<n and 0<=16*jo+ji<m "
        "and 0<=16*ko+ki<l}",
        ["<float32> acc = 0 {id=init}",
         "af[ii, ji] = if(16*ko + ji < l, a[16*io + ii, 16*ko + ji], 0) {id=fa, dep=init}",
         "bf[ii, ji] = if(16*ko + ii < l, b[16*ko + ii, 16*jo + ji], 0) {id=fb, dep=init}",
         "acc = acc + af[ii, ki] * bf[ki, ji] {id=upd, dep=fa:fb, inames=io:ii:jo:ji:ko:ki}",
         "c[16*io + ii, 16*jo + ji] = acc {dep=upd}"],
        [GlobalArg("a", np.float32, shape="n,l"), GlobalArg("b", np.float32, shape="l,m"),
         GlobalArg("c", np.float32, shape="n,m"),
         TemporaryVariable("af", np.float32, shape=(16, 16), address_space="local"),
         TemporaryVariable("bf", np.float32, shape=(16, 16), address_space="local"), "..."])
    knl = transforms.tag_inames(knl, "io:g.1, ii:l.1, jo:g.0, ji:l.0")
    code = generate_code(knl).device_code
    assert code.count("barrier(CLK_LOCAL_MEM_FENCE)") == 3
    rng = np.random.default_rng(0)
    a = rng.uniform(-1, 1, (37, 23)).astype(np.float32)
    b = rng.uniform(-1, 1, (23, 29)).astype(np.float32)
    np.testing.assert_allclose(run(knl, ctx, queue, a=a, b=b)["c"], a @ b, rtol=1e-5, atol=1e-5)


def test_statements_with_the_same_guard_share_one_if():
    knl = translator.make_kernel("{[i]: 0<=i<n}", ["a[i] = 1 {id=s1}", "b[i] = 2 {id=s2}"])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    code = generate_code(knl).device_code
    assert code.count("if (") == 1
    assert "  if (i_inner + 16 * i_outer < n)\n  {\n    a[" in code


def test_subscripting_a_scalar_is_an_error():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = x[i]",
                                 [ValueArg("x", np.float32), "..."])
    with pytest.raises(CodegenError, match="'x' is a scalar and cannot be subscripted"):
        generate_code(knl)


def test_integer_literals_in_float_calls_compile(ctx, queue):
    knl = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = sqrt(2) * max(x[i], 1) + pow(2, x[i])",
                                 [GlobalArg("x", np.float32, shape="n"), "..."])
    code = generate_code(knl)
    assert "sqrt(2.0f) * fmax(x[i], 1.0f)" in code.device_code
    assert not code.uses_fp64
    x = np.linspace(0, 2, 5).astype(np.float32)
    got = run(knl, ctx, queue, x=x)["y"]
    np.testing.assert_allclose(got, np.sqrt(2) * np.maximum(x, 1) + 2.0 ** x, rtol=1e-6)


@pytest.mark.parametrize("split", ["split_reduction_inward", "split_reduction_outward"])
def test_nested_reductions_keep_the_inner_accumulator_in_one_loop(ctx, queue, split):
    # the inner accumulator lives for one iteration of the outer reduction's loop: the
    # scheduler must not split that loop around it (it used to, and summed wrongly)
    knl = translator.make_kernel("{[i,j,k]: 0<=i<n and 0<=j<4 and 0<=k<5}",
                                 "out[i] = sum([j,k], a[i,j,k])",
                                 [GlobalArg("a", np.float64, shape="n,4,5"), "..."])
    knl = getattr(transforms, split)(knl, "j")
    a = np.random.default_rng(1).random((3, 4, 5))
    out = translator.compile(knl, ctx)(queue, a=a)["out"]
    np.testing.assert_allclose(out, a.sum(axis=(1, 2)), rtol=1e-12)


@pytest.mark.parametrize("tag,axis,meaning", [("sep", 0, "separate arrays per index"),
                                               ("vec", 1, "vector lanes")])
def test_sep_and_vec_axes_are_refused_at_the_array(tag, axis, meaning):
    """docs/kernel-language.md: the kernel language accepts sep and vec, codegen refuses
    them naming the array and the axis (kernel-language arguments carry no source line)."""
    tags = "sep, N0" if tag == "sep" else "N0, vec"
    knl = translator.parse_kernel(f"""kernel k
domains:
  {{ [i, j] : 0 <= i < n and 0 <= j < 4 }}
args:
  n: value, dtype=int32
  a: array, dtype=float32, shape=(4, n), dim_tags=({tags})
instructions:
  a[j, i] = 1.0  {{id=s0, inames=i:j, dep=*}}
""")
    with pytest.raises(CodegenError) as info:
        generate_code(knl)
    assert info.value.message == (
        f"array 'a': axis {axis} has the dim tag '{tag}' ({meaning}), which the kernel language "
        "accepts but the OpenCL target does not; give that axis a c, f, N or stride tag")
