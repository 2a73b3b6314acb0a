"""Complex data (numpy complex64/complex128, Fortran complex(4)/complex(8)) end to end.

Kernel-language kernels run on the CPU OpenCL device against numpy; the lowering of products
and quotients is checked bit for bit against the formulas gfortran uses; the Fortran frontend
and the host glue are checked on small programs; what stays unsupported has asserted messages.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import translator
from frontends.fortran import FRONTEND
from translator.codegen.complex import complex_helper_definitions
from translator.diagnostics import CodegenError, TranslatorError
from translator.ir.parse import GlobalArg, ValueArg

CTYPES = [np.complex64, np.complex128]
#: Relative tolerances for results of the device's math library (a few ulp).
RTOL = {np.complex64: 2e-6, np.complex128: 1e-14}


def part(dtype) -> type:
    return np.float32 if dtype == np.complex64 else np.float64


def rand_complex(dtype, n: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)


def run(ctx, queue, instructions: str, args: list, **inputs) -> dict[str, np.ndarray]:
    knl = translator.make_kernel("{[i]: 0<=i<n}", instructions, [*args, "..."])
    return translator.compile(knl, ctx)(queue, **inputs)


# ---------------------------------------------------------------------------------------------
# kernel language on the device, against numpy

@pytest.mark.parametrize("dtype", CTYPES)
def test_arithmetic_matches_numpy_exactly(ctx, queue, dtype):
    a, b = rand_complex(dtype, 300, 1), rand_complex(dtype, 300, 2)
    out = run(ctx, queue, """
        c[i] = a[i]*b[i] + a[i] - b[i]
        d[i] = -a[i] + conj(b[i])
        """, [GlobalArg("a", dtype, shape="n"), GlobalArg("b", dtype, shape="n")], a=a, b=b)
    np.testing.assert_array_equal(out["c"], cmul(a, b) + a - b)
    np.testing.assert_allclose(out["c"], a * b + a - b, rtol=RTOL[dtype])
    np.testing.assert_array_equal(out["d"], -a + np.conj(b))
    assert out["c"].dtype == dtype


def cmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(ar*br - ai*bi, ar*bi + ai*br), each operation rounded in the element type (numpy's own
    complex product may fuse multiply-adds)."""
    out = np.empty_like(a)
    out.real = a.real * b.real - a.imag * b.imag
    out.imag = a.real * b.imag + a.imag * b.real
    return out


def smith(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """gfortran's complex division (Smith's algorithm), in the element type, per element."""
    t = a.real.dtype.type
    out = np.empty_like(a)
    for k, (x, y) in enumerate(zip(a, b)):
        ar, ai, br, bi = t(x.real), t(x.imag), t(y.real), t(y.imag)
        if abs(br) < abs(bi):
            ratio = br / bi
            div = br * ratio + bi
            tr, ti = ar * ratio + ai, ai * ratio - ar
        else:
            ratio = bi / br
            div = bi * ratio + br
            tr, ti = ai * ratio + ar, ai - ar * ratio
        out[k] = complex(tr / div, ti / div)
    return out


@pytest.mark.parametrize("dtype", CTYPES)
def test_division_is_smiths_algorithm_bit_for_bit(ctx, queue, dtype):
    a, b = rand_complex(dtype, 200, 3), rand_complex(dtype, 200, 4)
    out = run(ctx, queue, "c[i] = a[i] / b[i]",
              [GlobalArg("a", dtype, shape="n"), GlobalArg("b", dtype, shape="n")], a=a, b=b)
    np.testing.assert_array_equal(out["c"], smith(a, b))
    np.testing.assert_allclose(out["c"], a / b, rtol=RTOL[dtype])


def test_division_does_not_overflow_where_the_textbook_formula_does(ctx, queue):
    # |b|^2 overflows double: (a*conj(b)) / |b|^2 would give 0 or nan, Smith's does not.
    a = np.array([1e300 + 1e300j, 3 - 4j, 1e-300 + 2e-300j])
    b = np.array([2e300 + 1e300j, 1e200 + 1e201j, 1e-300 - 1e-300j])
    out = run(ctx, queue, "c[i] = a[i] / b[i]", [GlobalArg("a", np.complex128, shape="n"),
                                                  GlobalArg("b", np.complex128, shape="n")],
              a=a, b=b)
    assert np.all(np.isfinite(out["c"]))
    np.testing.assert_allclose(out["c"], a / b, rtol=1e-15)


@pytest.mark.parametrize("dtype", CTYPES)
def test_mixed_real_and_complex(ctx, queue, dtype):
    a = rand_complex(dtype, 100, 5)
    x = np.linspace(-2, 3, 100).astype(part(dtype))
    out = run(ctx, queue, """
        c[i] = x[i]*a[i] + a[i]/x[i] - 2.0 + 1.0j*a[i]
        d[i] = x[i] + a[i]
        e[i] = complex(x[i], 2*x[i]) + i
        """, [GlobalArg("a", dtype, shape="n"), GlobalArg("x", part(dtype), shape="n")],
        a=a, x=x)
    # numpy converts the real operand to (x, 0), as the target does; division: Smith's
    xc = x.astype(dtype)
    expect = cmul(xc, a) + smith(a, xc) - dtype(2) + cmul(np.full_like(a, 1j), a)
    np.testing.assert_allclose(out["c"], expect, rtol=RTOL[dtype])
    np.testing.assert_array_equal(out["d"], x + a)
    # numpy promotion: complex64 + int32 (the iname) is complex128
    np.testing.assert_array_equal(out["e"], (x + 1j * (2 * x)).astype(dtype)
                                  + np.arange(100, dtype=np.int32))
    assert out["c"].dtype == out["d"].dtype == dtype
    assert out["e"].dtype == np.result_type(dtype, np.int32)


@pytest.mark.parametrize("dtype", CTYPES)
def test_parts_abs_and_conversions(ctx, queue, dtype):
    a = rand_complex(dtype, 100, 6)
    real_t = part(dtype)
    out = run(ctx, queue, """
        r[i] = real(a[i]) - imag(a[i])
        m[i] = abs(a[i])
        c[i] = cast(float32, a[i])
        w[i] = x[i]
        z[i] = cast(complex128, a[i]) * 0.5
        """, [GlobalArg("a", dtype, shape="n"), GlobalArg("r", real_t, shape="n"),
              GlobalArg("m", real_t, shape="n"), GlobalArg("c", np.float32, shape="n"),
              GlobalArg("x", np.float64, shape="n"), GlobalArg("w", dtype, shape="n"),
              GlobalArg("z", np.complex128, shape="n")], a=a, x=np.arange(100.0))
    np.testing.assert_array_equal(out["r"], a.real - a.imag)
    np.testing.assert_allclose(out["m"], np.abs(a), rtol=RTOL[dtype])
    np.testing.assert_array_equal(out["c"], a.real.astype(np.float32))
    np.testing.assert_array_equal(out["w"], np.arange(100.0).astype(dtype))
    np.testing.assert_array_equal(out["z"], a.astype(np.complex128) * 0.5)


@pytest.mark.parametrize("dtype", CTYPES)
def test_comparisons(ctx, queue, dtype):
    a = rand_complex(dtype, 50, 7)
    b = a.copy()
    b[::3] += dtype(1j)
    out = run(ctx, queue, """
        e[i] = if(a[i] == b[i], 1, 0)
        ne[i] = if(a[i] != b[i], 1, 0)
        r[i] = if(a[i] == real(a[i]), 1, 0)
        """, [GlobalArg("a", dtype, shape="n"), GlobalArg("b", dtype, shape="n"),
              GlobalArg("e", np.int32, shape="n"), GlobalArg("ne", np.int32, shape="n"),
              GlobalArg("r", np.int32, shape="n")], a=a, b=b)
    np.testing.assert_array_equal(out["e"], (a == b).astype(np.int32))
    np.testing.assert_array_equal(out["ne"], (a != b).astype(np.int32))
    np.testing.assert_array_equal(out["r"], np.zeros(50, np.int32))


@pytest.mark.parametrize("dtype", CTYPES)
def test_integer_powers(ctx, queue, dtype):
    a = rand_complex(dtype, 60, 8)
    out = run(ctx, queue, """
        p2[i] = a[i]**2
        p3[i] = a[i]**3
        q[i] = a[i]**(-2)
        pn[i] = a[i]**k
        pm[i] = a[i]**(-k)
        """, [GlobalArg("a", dtype, shape="n"), ValueArg("k", np.int32)], a=a, k=7)
    np.testing.assert_array_equal(out["p2"], cmul(a, a))
    np.testing.assert_array_equal(out["p3"], cmul(cmul(a, a), a))
    inverse = smith(np.ones_like(a), a)
    np.testing.assert_array_equal(out["q"], cmul(inverse, inverse))
    rtol = 50 * RTOL[dtype]
    np.testing.assert_allclose(out["pn"], a ** 7, rtol=rtol)
    np.testing.assert_allclose(out["pm"], a ** -7, rtol=rtol)


@pytest.mark.parametrize("dtype", CTYPES)
def test_elementary_functions(ctx, queue, dtype):
    a = rand_complex(dtype, 200, 9)
    a[:4] = [-4, 1j, -2 - 0j, 0]          # branch cuts and zero
    out = run(ctx, queue, """
        s[i] = sqrt(a[i])
        e[i] = exp(a[i])
        l[i] = log(a[i] + 3)
        si[i] = sin(a[i])
        co[i] = cos(a[i])
        """, [GlobalArg("a", dtype, shape="n")], a=a)
    atol = 10 * RTOL[dtype]
    np.testing.assert_allclose(out["s"], np.sqrt(a), rtol=RTOL[dtype], atol=atol)
    np.testing.assert_allclose(out["e"], np.exp(a), rtol=RTOL[dtype], atol=atol)
    np.testing.assert_allclose(out["l"], np.log(a + 3), rtol=RTOL[dtype], atol=atol)
    np.testing.assert_allclose(out["si"], np.sin(a), rtol=RTOL[dtype], atol=atol)
    np.testing.assert_allclose(out["co"], np.cos(a), rtol=RTOL[dtype], atol=atol)


@pytest.mark.parametrize("dtype", CTYPES)
def test_value_argument_temporaries_and_sums(ctx, queue, dtype):
    a = rand_complex(dtype, 64, 10)
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<n}", """
        <> t = a[i] * w
        c[i] = t + sum(j, a[j])
        """, [GlobalArg("a", dtype, shape="n"), ValueArg("w", dtype), "..."])
    out = translator.compile(knl, ctx)(queue, a=a, w=dtype(0.5 - 2j))
    np.testing.assert_allclose(out["c"], a * dtype(0.5 - 2j) + a.sum(), rtol=1e3 * RTOL[dtype])


def test_untyped_arguments_take_complex_array_types(ctx, queue):
    a = rand_complex(np.complex64, 20, 11)
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 2*a[i] + 1.5")
    out = translator.compile(knl, ctx)(queue, a=a)["out"]
    assert out.dtype == np.complex64
    np.testing.assert_array_equal(out, np.complex64(2) * a + np.float32(1.5))


# ---------------------------------------------------------------------------------------------
# generated code

def device_code(instructions: str, dtype=np.complex64) -> str:
    knl = translator.make_kernel("{[i]: 0<=i<n}", instructions,
                                 [GlobalArg("a", dtype, shape="n"),
                                  GlobalArg("b", dtype, shape="n"), "..."])
    return translator.generate_code(knl).device_code


def test_vectors_and_only_the_helpers_used():
    code = device_code("b[i] = a[i] * a[i] + (1.0 - 2.0j)")
    assert "__global float2 *restrict b" in code
    # Python literals take the type of the complex64 values around them
    assert "_tr_cmul_float2(a[i], a[i]) + ((float2)(1.0f, 0.0f) + (float2)(-0.0f, -2.0f))" \
        in code
    assert "static inline float2 _tr_cmul_float2(float2 a, float2 b)" in code
    assert "_tr_cdiv" not in code and "cl_khr_fp64" not in code
    assert code == device_code("b[i] = a[i] * a[i] + (1.0 - 2.0j)")   # deterministic


def test_double_complex_enables_fp64_and_helpers_come_in_dependency_order():
    code = device_code("b[i] = a[i]**n", np.complex128)
    assert code.startswith("#pragma OPENCL EXTENSION cl_khr_fp64 : enable")
    order = [code.index(f"_tr_{k}_double2(") for k in ("cmul", "cdiv", "cpowi")]
    assert order == sorted(order)


def test_helper_definitions_are_ordered_and_deduplicated():
    text = complex_helper_definitions({("ceq", "complex128"), ("cmul", "complex64"),
                                       ("cpowi", "complex64"), ("floordiv", "int32")})
    heads = [line for line in text.splitlines() if line.startswith("static inline")]
    assert [h.split("(")[0].split()[-1] for h in heads] == [
        "_tr_cmul_float2", "_tr_cdiv_float2", "_tr_cpowi_float2", "_tr_ceq_double2"]


def test_kernel_language_round_trip():
    knl = translator.make_kernel("{[i]: 0<=i<n}", """
        b[i] = complex(real(a[i]), 2.5)*complex64(1.0, -0.5) + conj(a[i])/imag(a[i]) + 2.0j
        """, [GlobalArg("a", np.complex64, shape="n"), GlobalArg("b", np.complex64, shape="n"),
              "..."])
    text = translator.print_kernel(knl)
    assert "complex64(1.0, -0.5)" in text and "complex(0.0, 2.0)" in text
    assert translator.parse_kernel(text) == knl


# ---------------------------------------------------------------------------------------------
# what stays unsupported (kernel language)

@pytest.mark.parametrize("instruction, message", [
    ("c[i] = if(a[i] < b[i], 1, 0)",
     "complex values have no order: comparison with < is not defined for them"),
    ("c[i] = if(max(abs(a[i]), 1.0) > 2, a[i], b[i])", None),
    ("c[i] = max(a[i], b[i])", "complex values have no order: max is not defined for them"),
    ("c[i] = a[i] ** 1.5", "complex power with a non-integer exponent"),
    ("c[i] = tan(a[i])", "function tan() of complex values is not supported by the OpenCL "
                         "target (supported: abs, cos, exp, log, sin, sqrt)"),
    ("c[i] = a[i] // b[i]", "floor division of complex values is not defined"),
    ("c[i] = max(j, a[j])", "max reduction of complex values (complex values have no order)"),
])
def test_unsupported_complex_operations(instruction, message):
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<n}", instruction,
                                 [GlobalArg("a", np.complex64, shape="n"),
                                  GlobalArg("b", np.complex64, shape="n"),
                                  GlobalArg("c", np.complex64, shape="n"), "..."])
    if message is None:     # abs of a complex value is real: ordering it is fine
        translator.generate_code(knl)
        return
    with pytest.raises(CodegenError) as info:
        translator.generate_code(knl)
    assert message in info.value.message


# ---------------------------------------------------------------------------------------------
# Fortran

def fortran(statements: str, decls: str = "") -> str:
    """A subroutine whose region (line 8 on) holds `statements`."""
    return ("subroutine s(n, z, w, x)\n"
            "  integer :: n, i\n"
            "  complex :: z(n)\n"
            "  complex(8) :: w(n)\n"
            f"  real :: x(n){decls}\n"
            "  real(8) :: y\n"
            "  !$translate kernel k\n"
            + textwrap.indent(textwrap.dedent(statements), "  ")
            + "  !$translate end kernel\n"
            "end subroutine\n")


def fortran_ir(statements: str) -> str:
    from translator.driver import translate_text
    result = translate_text("c.f90", fortran(statements))
    return result.outputs["c.cl"], result.outputs["c.host.c"], result.outputs["c.f90"]


def test_fortran_types_glue_and_interface():
    cl, host, src = fortran_ir("do i = 1, n\n  w(i) = z(i) * x(i) + (1.0, 2.0)\nend do\n")
    assert "__global double2 *restrict w" in cl and "__global float2 const *restrict z" in cl
    # z*x: x converted to (x, 0), complex(4) product, then converted to complex(8)
    assert "_tr_cmul_float2(z[i" in cl and "(float2)(x[i" in cl and "convert_double2(" in cl
    assert "double _Complex *w" in host and "const float _Complex *z" in host
    assert "complex(c_double_complex) :: w(*)" in src
    assert "complex(c_float_complex) :: z(*)" in src


@pytest.mark.filterwarnings("ignore:region k runs as a single work item")
@pytest.mark.parametrize("statement, text", [
    ("w(1) = (1, 2.5d0)", "(double2)(1.0, 2.5)"),
    ("z(1) = cmplx(x(1), 2)", "(float2)(x[0], 2.0f)"),
    ("w(1) = dcmplx(x(1))", "(double2)((double) x[0], 0.0)"),
    ("x(1) = aimag(z(1)) + real(z(2))", "z[0].y + z[1].x"),
    ("y = dble(w(1)) + abs(w(2))", "w[0].x + _tr_cabs_double2(w[1])"),
    ("x(1) = w(1)", "(float) w[0].x"),
    ("x(1) = int(z(1))", "(float) (int) z[0].x"),
    ("z = w", "= convert_float2(w[_tr_i_inner + _tr_i_outer * 256]);"),
    ("x(1) = real(w(1), 4) + real(z(1), 8)", "(float) ((float) w[0].x + (double) z[0].x)"),
    ("z(1) = conjg(z(2)) ** 2", "_tr_cmul_float2(_tr_conj_float2(z[1]), _tr_conj_float2(z[1]))"),
    ("z(1) = z(2) ** n", "_tr_cpowi_float2(z[1], n)"),
    ("y = dot_product(z, z)", "_tr_cmul_float2(_tr_conj_float2(z["),
])
def test_fortran_intrinsics_and_conversions(statement, text):
    cl, _, _ = fortran_ir(statement + "\n")
    assert text in cl, cl


def fortran_error(statement: str) -> TranslatorError:
    with pytest.raises(TranslatorError) as info:
        FRONTEND.parse("bad.f90", fortran(statement + "\n"), {})
    err = info.value
    assert err.span is not None and err.span.file == "bad.f90" and err.span.line == 8
    return err


@pytest.mark.parametrize("statement, message", [
    ("x(1) = merge(1.0, 2.0, z(1) < z(2))",
     "complex values have no order: they can only be compared with == and /= (not <)"),
    ("z(1) = z(1) ** 1.5", "complex power with a real exponent (complex(4) ** real(4)) is not "
                           "supported (only integer exponents of complex values are)"),
    ("x(1) = 2.0 ** z(1)", "complex power with a complex exponent"),
    ("z(1) = max(z(1), z(2))", "intrinsic max: argument z(1) is complex; max needs integer or "
                               "real arguments"),
    ("z(1) = tan(z(1))", "intrinsic tan of a complex argument is not supported (complex "
                         "arguments: sqrt, exp, log, sin, cos, abs)"),
    ("x(1) = maxval(z)", "maxval of complex values: complex values have no order"),
    ("x(1) = aimag(x(2))", "intrinsic aimag: the argument must be complex, not real(4)"),
    ("z(1) = cmplx(z(2), 1.0)", "intrinsic cmplx: x must not be complex when y is present"),
    ("x(1) = dsqrt(z(1))", "intrinsic dsqrt: the argument must be real, not complex"),
    ("x(1) = huge(z(1))", "intrinsic huge: the argument must be integer or real, not complex"),
])
def test_fortran_errors(statement, message):
    assert message in fortran_error(statement).message


def test_fortran_complex_constants_and_named_constants():
    cl, _, _ = fortran_ir(
        "w(1) = (0.1, 2) + (0.25d0, -1)\n", )
    # (0.1, 2): complex(4), its real part the real(4) 0.1; the sum is folded in complex(8)
    value = np.complex128(np.complex64(0.1 + 2j)) + np.complex128(0.25 - 1j)
    from translator.codegen.complex import complex_literal
    assert complex_literal(value, np.complex128) in cl
    src = fortran("w(1) = i2 * w(2)\n", decls="\n  complex(8), parameter :: i2 = (0, 1)")
    from translator.driver import translate_text
    cl = translate_text("c.f90", src).outputs["c.cl"]
    assert "_tr_cmul_double2((double2)(0.0, 1.0), w[1])" in cl
