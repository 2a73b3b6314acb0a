"""Registering library routines: user functions, user reductions, preambles and symbols.

Structural checks (what the kernel records, print/parse round trips), runs on the CPU OpenCL
device against numpy, errors by message, and two programs end to end (a C region with a user
reduction, a Fortran region with its own implementation of an intrinsic).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import transforms
import translator
from tests.e2e.harness import REPO, check_sample
from translator.ir import reduction_ops, registrations
from translator.diagnostics import CodegenError, KernelLanguageError, TransformError
from translator.testing import auto_test_vs_ref


def _vector(expr: str, dtype=np.float64, out="out"):
    return translator.make_kernel("{[i]: 0<=i<n}", f"{out}[i] = {expr}",
                                  [translator.GlobalArg("a", dtype, shape="n"), "..."])


def _reduction(expr: str, dtype=np.float64):
    return translator.make_kernel(
        "{[i]: 0<=i<n}", f"s[0] = {expr}",
        [translator.GlobalArg("a", dtype, shape="n"),
         translator.GlobalArg("s", dtype, shape=(1,), is_output=True, is_input=False), "..."])


SQ = "double sq(double x) { return x * x; }"

# ---------------------------------------------------------------------------------------------
# user functions


def test_register_function_is_recorded_printable_and_runs(ctx, queue):
    knl = transforms.register_function(_vector("sq(a[i]) + 1"), "sq", SQ, ["float64"], "float64")
    assert knl.options.extra["user_functions"] == (
        ("sq", "sq", ("float64",), "float64", SQ),)
    assert translator.parse_kernel(translator.print_kernel(knl)) == knl
    code = translator.generate_code(knl).device_code
    assert code.count(SQ) == 1 and "out[i] = sq(a[i]) + 1;" in code
    a = np.linspace(-2, 2, 37)
    out = translator.compile(knl, ctx)(queue, a=a)["out"]
    np.testing.assert_array_equal(out, a * a + 1)


def test_register_function_again_is_no_change():
    knl = transforms.register_function(_vector("sq(a[i])"), "sq", SQ, ["float64"], "float64")
    assert transforms.register_function(knl, "sq", SQ, ["float64"], "float64") is knl


def test_definition_only_where_called():
    knl = transforms.register_function(_vector("2*a[i]"), "sq", SQ, ["float64"], "float64")
    assert "sq" not in translator.generate_code(knl).device_code


def test_result_type_and_argument_conversion(ctx, queue):
    """The call has the declared result type (out becomes int32) and arguments are converted
    to the declared types (a float32 array passed to a double function)."""
    floor2 = "int floor2(double x) { return (int) floor(x / 2.0); }"
    knl = transforms.register_function(_vector("floor2(a[i])", np.float32), "floor2", floor2,
                                       ["float64"], "int32")
    a = np.linspace(-5, 5, 21).astype(np.float32)
    out = translator.compile(knl, ctx)(queue, a=a)["out"]
    assert out.dtype == np.int32
    np.testing.assert_array_equal(out, np.floor(a / 2).astype(np.int32))
    assert "floor2((double) a[i])" in translator.generate_code(knl).device_code


def test_builtin_of_the_target_with_an_empty_definition(ctx):
    """An empty definition names an OpenCL built-in (hypot is no IR function)."""
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = hypot(a[i], b[i])",
                                 [translator.GlobalArg("a", np.float64, shape="n"),
                                  translator.GlobalArg("b", np.float64, shape="n"), "..."])
    knl = transforms.register_function(knl, "hypot", "", ["float64", "float64"], "float64")
    out = auto_test_vs_ref(knl, ctx, parameters={"n": 50})
    assert out["out"].shape == (50,)
    ref = translator.compile(knl, ctx)
    assert "hypot(a[i], b[i])" in ref.code.device_code


def test_function_named_like_an_ir_function_replaces_it(ctx, queue):
    my_exp = "double my_exp(double x) { return exp(0.5 * x) * exp(0.5 * x); }"
    plain = _vector("exp(a[i])")
    knl = transforms.register_function(plain, "exp", my_exp, ["float64"], "float64",
                                       c_name="my_exp")
    code = translator.generate_code(knl).device_code
    assert "my_exp(a[i])" in code and my_exp in code
    a = np.linspace(-1, 1, 33)
    out = translator.compile(knl, ctx)(queue, a=a)["out"]
    np.testing.assert_allclose(out, np.exp(a), rtol=1e-14)


@pytest.mark.parametrize("args, message", [
    (("1sq", SQ, ["float64"], "float64"), "function name '1sq' is not an identifier"),
    (("_tr_sq", SQ, ["float64"], "float64"), "names starting with _tr_ are reserved"),
    (("sq", SQ, ["float128x"], "float64"), "'float128x' is not a data type"),
    (("sq", SQ, "float64", "float64"), "arg_dtypes must be a list of data types"),
    (("sq", "double sqr(double x) { return x; }", ["float64"], "float64"),
     "the definition does not define sq(...)"),
    (("sq", SQ, ["float64", "float64"], "float64"),
     "statement 'insn' calls sq with 1 argument(s), but it takes 2"),
    (("a", "", ["float64"], "float64"), "'a' is already a variable or iname"),
])
def test_register_function_errors(args, message):
    with pytest.raises(TransformError, match=message.replace("(", r"\(").replace(")", r"\)")):
        transforms.register_function(_vector("sq(a[i])"), *args)


def test_two_functions_cannot_share_a_c_name():
    knl = transforms.register_function(_vector("sq(a[i])"), "sq", SQ, ["float64"], "float64")
    with pytest.raises(TransformError, match="square and sq would both be the C function sq"):
        transforms.register_function(knl, "square", "double sq(double y) { return y; }",
                                     ["float64"], "float64", c_name="sq")


def test_call_with_wrong_arity_added_later_is_a_codegen_error():
    knl = transforms.register_function(_vector("2*a[i]"), "sq", SQ, ["float64"], "float64")
    from dataclasses import replace

    import pymbolic.primitives as p
    stmt = replace(knl.statements[0], expression=p.Call(p.Variable("sq"), (1.0, 2.0)))
    with pytest.raises(CodegenError, match=r"function 'sq' takes 1 argument\(s\), got 2"):
        translator.generate_code(knl.copy(statements=(stmt,)))


def test_unknown_function_error_names_register_function():
    with pytest.raises(CodegenError, match="unknown function 'nosuch'.*register_function"):
        translator.generate_code(_vector("nosuch(a[i])"))


# ---------------------------------------------------------------------------------------------
# user reductions


def test_reduction_in_the_kernel_language_sequential_and_parallel(ctx, queue):
    reduction_ops.register_reduction_operation("bxor", 0, "a ^ b")
    knl = _reduction("reduce(bxor, [i], a[i])", np.uint32)
    a = np.random.default_rng(1).integers(0, 2**32 - 1, 300, dtype=np.uint64).astype(np.uint32)
    want = np.bitwise_xor.reduce(a)
    assert translator.compile(knl, ctx)(queue, a=a)["s"][0] == want
    tree = transforms.split_iname(knl, "i", 32, inner_tag="l.0")
    assert "__local uint" in translator.generate_code(tree).device_code
    assert translator.compile(tree, ctx)(queue, a=a)["s"][0] == want


def test_register_reduction_records_and_round_trips(ctx):
    """Registered on the kernel, then used: the kernel language parses it (the name is known to
    the process), the printed kernel parses back, and the tree matches the sequential loop."""
    knl = transforms.register_reduction(_reduction("0*a[0]"), "norm2", 0, "sqrt(a*a + b*b)")
    assert knl.options.extra["user_reductions"] == (
        ("norm2", "0", "sqrt(a*a + b*b)", True, True),)
    used = _reduction("reduce(norm2, [i], a[i])").statements
    knl = knl.copy(statements=used)
    assert translator.parse_kernel(translator.print_kernel(knl)) == knl
    tree = transforms.split_iname(knl, "i", 16, inner_tag="l.0")
    out = auto_test_vs_ref(knl, ctx, tree, parameters={"n": 100}, rtol=1e-13)
    assert out["s"][0] > 0


def test_float_reduction_matches_numpy(ctx, queue):
    reduction_ops.register_reduction_operation("norm2", 0, "sqrt(a*a + b*b)")
    knl = transforms.split_iname(_reduction("reduce(norm2, [i], a[i])"), "i", 8,
                                 inner_tag="l.0")
    a = np.random.default_rng(2).uniform(-1, 1, 77)
    out = translator.compile(knl, ctx)(queue, a=a)["s"][0]
    assert out == pytest.approx(np.linalg.norm(a), rel=1e-13)


def test_non_commutative_reduction_is_sequential_only(ctx, queue):
    reduction_ops.register_reduction_operation("last", 0, "b", commutative=False)
    knl = _reduction("reduce(last, [i], a[i])")
    a = np.arange(10.0)
    assert translator.compile(knl, ctx)(queue, a=a)["s"][0] == 9.0
    with pytest.raises(CodegenError, match="reduction 'last' cannot run across work items"):
        translator.generate_code(transforms.split_iname(knl, "i", 8, inner_tag="l.0"))


def test_user_reduction_across_groups_is_refused():
    reduction_ops.register_reduction_operation("bxor", 0, "a ^ b")
    knl = transforms.split_iname(_reduction("reduce(bxor, [i], a[i])", np.uint32), "i", 16,
                                 outer_tag="g.0", inner_tag="l.0")
    with pytest.raises(CodegenError, match=r"reduction 'bxor' over group inames \(i_outer\) "
                                           "would need an atomic update"):
        translator.generate_code(knl)


def test_kernel_definition_wins_over_the_process_one(ctx, queue):
    reduction_ops.register_reduction_operation("pick", 0, "a + b")
    knl = _reduction("reduce(pick, [i], a[i])")
    knl = transforms.register_reduction(knl, "pick", 1, "a * b")
    reduction_ops.register_reduction_operation("pick", 0, "a + b")
    a = np.array([2.0, 3.0, 4.0])
    assert translator.compile(knl, ctx)(queue, a=a)["s"][0] == 24.0


def test_accumulations_become_reductions(ctx, queue):
    knl = translator.make_kernel(
        "{[i, j]: 0<=i<n and 0<=j<m}",
        ["h[j] = 0 {id=init}", "h[j] = a[i, j] ^ h[j] {id=acc, dep=init}"],
        [translator.GlobalArg("a", np.uint32, shape="n, m"),
         translator.GlobalArg("h", np.uint32, shape="m"), "..."])
    knl = transforms.register_reduction(knl, "bxor", 0, "a ^ b", accumulations="id:acc")
    acc = knl.statement("acc")
    assert acc.within_inames == {"j"}
    assert translator.print_kernel(knl).count("h[j] ^ reduce(bxor, [i], a[i, j])") == 1
    tree = transforms.split_iname(knl, "i", 16, inner_tag="l.0")
    a = np.random.default_rng(3).integers(0, 2**31, (40, 3)).astype(np.uint32)
    got = translator.compile(tree, ctx)(queue, a=a, h=np.zeros(3, np.uint32))["h"]
    np.testing.assert_array_equal(got, np.bitwise_xor.reduce(a, axis=0))


@pytest.mark.parametrize("split", [False, True])
def test_accumulator_per_outer_iteration_with_reduction_iname_declared_first(ctx, queue, split):
    """The statement's loop (j) goes around the reduction's (i) even when i is declared first:
    the accumulator holds one value per j (found through the user reduction above; a built-in
    sum showed it too, sequential and across work items)."""
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<m}", "h[j] = sum(i, a[i, j])",
                                 [translator.GlobalArg("a", np.float64, shape="n, m"), "..."])
    if split:
        knl = transforms.split_iname(knl, "i", 16, inner_tag="l.0")
    a = np.random.default_rng(4).uniform(0, 1, (40, 3))
    got = translator.compile(knl, ctx)(queue, a=a)["h"]
    np.testing.assert_allclose(got, a.sum(axis=0), rtol=1e-14)


def test_accumulations_errors():
    knl = translator.make_kernel("{[i]: 0<=i<n}", ["h[0] = h[0] ^ a[i] {id=acc}",
                                                   "b[i] = h[0] {id=use, dep=acc}"])
    with pytest.raises(TransformError, match=r"no statement matched by 'id:acc' accumulates "
                                             r"with bxor \(expected x = x \^ b for a term b"):
        transforms.register_reduction(knl, "bxor", 0, "a ^ b", accumulations="id:acc")
    with pytest.raises(TransformError, match="needs an associative combine"):
        transforms.register_reduction(knl, "bsub", 0, "a - b", associative=False,
                                      accumulations="id:acc")


@pytest.mark.parametrize("args, message", [
    (("sum", 0, "a + b"), "reduction 'sum' is built in and cannot be redefined"),
    (("r", "n", "a + b"), "the neutral element 'n' is not a real constant"),
    (("r", 0, "a + c"), "may use only the operands a and b, not c"),
    (("r", 0, "a +"), "reduction 'r': "),
    (("r", 0, 5), "combine must be expression text"),
])
def test_register_reduction_errors(args, message):
    with pytest.raises(TransformError, match=message):
        transforms.register_reduction(_reduction("0*a[0]"), *args)


def test_unregistered_reduction_is_a_parse_error():
    with pytest.raises(KernelLanguageError, match="unknown reduction operation 'nosuchop'"):
        _reduction("reduce(nosuchop, [i], a[i])")


def test_neutral_without_a_value_of_the_type():
    reduction_ops.register_reduction_operation("fmax_neg", "float(-inf)", "max(a, b)")
    with pytest.raises(CodegenError, match="neutral element float.-inf. has no value of type "
                                           "int32"):
        translator.generate_code(_reduction("reduce(fmax_neg, [i], a[i])", np.int32))


# ---------------------------------------------------------------------------------------------
# preambles and symbols


def test_static_preambles_sorted_and_used(ctx, queue):
    knl = transforms.register_preamble_generators(
        _vector("SCALE*a[i]"), [("b_scale", "#define SCALE (2.0*HALF_SCALE)"),
                                ("a_half", "#define HALF_SCALE 1.5")])
    knl = transforms.register_symbol_manglers(knl, {"SCALE": ("float64", "SCALE")})
    code = translator.generate_code(knl).device_code
    assert code.index("HALF_SCALE 1.5") < code.index("#define SCALE") < code.index("__kernel")
    assert translator.parse_kernel(translator.print_kernel(knl)) == knl
    a = np.arange(5.0)
    np.testing.assert_array_equal(translator.compile(knl, ctx)(queue, a=a)["out"], 3 * a)


def test_preamble_generator_sees_the_code():
    seen = []

    def gen(info):
        seen.append(info)
        return [("gen", f"/* functions: {', '.join(sorted(info.seen_functions))} */")]

    knl = transforms.register_function(_vector("sq(sqrt(a[i]))"), "sq", SQ, ["float64"],
                                       "float64")
    knl = transforms.register_preamble_generators(knl, [gen])
    code = translator.generate_code(knl).device_code
    assert "/* functions: sq, sqrt */" in code
    assert np.dtype(np.float64) in seen[0].seen_dtypes and seen[0].target == "opencl"
    names = knl.options.extra["preamble_generators"]
    assert names == (f"{__name__}.test_preamble_generator_sees_the_code.<locals>.gen",)


def test_preamble_errors():
    knl = transforms.register_preamble_generators(_vector("a[i]"), [("k", "/* one */")])
    with pytest.raises(TransformError, match="preamble 'k' is already registered with "
                                             "different code"):
        transforms.register_preamble_generators(knl, [("k", "/* two */")])
    with pytest.raises(TransformError, match="neither a callable nor a .sort_key, code. pair"):
        transforms.register_preamble_generators(knl, ["just text"])

    def broken(info):
        raise ValueError("no luck")

    clash = transforms.register_preamble_generators(
        knl, [lambda info: [("k", "/* three */")]])
    with pytest.raises(CodegenError, match="preamble 'k' from preamble generator .* differs"):
        translator.generate_code(clash)
    with pytest.raises(CodegenError, match="preamble generator .*broken' failed: ValueError: "
                                           "no luck"):
        translator.generate_code(transforms.register_preamble_generators(knl, [broken]))
    lost = registrations.set_entries(knl, registrations.GENERATORS_KEY, ["elsewhere.gen"])
    with pytest.raises(CodegenError, match="preamble generator 'elsewhere.gen' is not "
                                           "registered in this process"):
        translator.generate_code(lost)


def test_symbols_replace_value_arguments(ctx, queue):
    knl = _vector("pi*a[i] + tau")
    assert {"pi", "tau"} <= set(knl.arg_names)
    knl = transforms.register_symbol_manglers(
        knl, [("tau", "float32", "0.25f"),
              lambda kernel, name: ("float64", "M_PI") if name == "pi" else None])
    assert not {"pi", "tau"} & set(knl.arg_names)
    assert knl.options.extra["symbols"] == (("pi", "float64", "M_PI"),
                                            ("tau", "float32", "0.25f"))
    code = translator.generate_code(knl).device_code
    assert "#define pi (M_PI)\n#define tau (0.25f)\n" in code
    a = np.arange(4.0)
    out = translator.compile(knl, ctx)(queue, a=a)["out"]
    np.testing.assert_allclose(out, np.pi * a + 0.25, rtol=1e-15)


def test_symbol_errors():
    knl = _vector("pi*a[i]")
    with pytest.raises(TransformError, match="'n' is a domain parameter, shape or written "
                                             "variable"):
        transforms.register_symbol_manglers(knl, {"n": ("int32", "16")})
    with pytest.raises(TransformError, match="'a' is already an iname, array or temporary"):
        transforms.register_symbol_manglers(knl, {"a": ("float64", "1.0")})
    with pytest.raises(TransformError, match="symbol 'pi' needs one line of C text"):
        transforms.register_symbol_manglers(knl, {"pi": ("float64", "")})
    with pytest.raises(TransformError, match="symbol 'pi' needs .dtype, c_text."):
        transforms.register_symbol_manglers(knl, {"pi": "M_PI"})
    with pytest.raises(TransformError, match="mangler .* failed on 'pi': KeyError"):
        transforms.register_symbol_manglers(knl, [lambda k, n: {}[n]])


# ---------------------------------------------------------------------------------------------
# from pragmas, end to end

C_CHECKSUM = """\
/* translate-test: */
#include <stdio.h>

#define N 1000

void checksum(int n, const unsigned int *restrict a, unsigned int *restrict h)
{
#pragma translate kernel checksum_k
#pragma translate register_reduction("bxor", 0, "a ^ b", accumulations="writes:h")
#pragma translate split_iname("i", 64, inner_tag="l.0")
  *h = 0u;
  for (int i = 0; i < n; i++)
    *h ^= a[i];
#pragma translate end kernel
}

int main(void)
{
  static unsigned int a[N];
  unsigned int h, x = 12345u;
  for (int i = 0; i < N; i++) {
    x = x * 1103515245u + 12345u;
    a[i] = x;
  }
  checksum(N, a, &h);
  printf("checksum %u\\n", h);
  return 0;
}
"""

FORTRAN_EXP = """\
! translate-test: rtol=1e-13
subroutine growth(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  integer :: i
  !$translate kernel growth_k
  !$translate register_function("exp", &
  !$translate&   "double my_exp(double x) { return exp(0.5 * x) * exp(0.5 * x); }", &
  !$translate&   ["float64"], "float64", c_name="my_exp")
  !$translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     y(i) = 2.0d0 * exp(x(i))
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 100
  real(8) :: x(n), y(n)
  integer :: i
  do i = 1, n
     x(i) = 0.01d0 * i - 0.5d0
  end do
  call growth(n, x, y)
  print '(3es24.15)', y(1), y(n / 2), y(n)
end program
"""


def test_c_region_with_a_user_reduction_end_to_end(tmp_path):
    src = tmp_path / "checksum.c"
    src.write_text(C_CHECKSUM)
    out = check_sample(src, tmp_path)
    assert out.startswith("checksum ")
    assert "_tr_red[_tr_lane0] ^ _tr_red" in (tmp_path / "out" / "checksum.cl").read_text()


def test_fortran_region_with_its_own_exp_end_to_end(tmp_path):
    src = tmp_path / "growth.f90"
    src.write_text(FORTRAN_EXP)
    check_sample(src, tmp_path)
    assert "2.0 * my_exp(x[" in (tmp_path / "out" / "growth.cl").read_text()


def test_bad_registration_pragma_is_an_error_at_its_line(tmp_path):
    bad = C_CHECKSUM.replace('register_reduction("bxor", 0, "a ^ b"',
                             'register_reduction("bxor", 0, "a ^ c"')
    src = tmp_path / "bad.c"
    src.write_text(bad)
    r = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                        str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True)
    assert r.returncode == 1
    assert (f"{src}:9:" in r.stderr and "error: reduction 'bxor': combine 'a ^ c' may use only "
            "the operands a and b, not c" in r.stderr), r.stderr


def test_registered_types_are_the_types_the_target_declares():
    """`check_dtype` (IR) accepts exactly the dtypes code generation can declare."""
    from translator.codegen.cnames import _C_TYPES
    from translator.ir.parse_expr import SCALAR_TYPE_NAMES
    assert set(_C_TYPES) == SCALAR_TYPE_NAMES
    assert registrations.check_dtype("float16", "t") == np.dtype(np.float16)
    with pytest.raises(TransformError, match="'U3' is not a data type the OpenCL target"):
        registrations.check_dtype("U3", "t")
