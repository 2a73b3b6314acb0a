"""The C side of names, types and literals: the OpenCL C type of a numpy dtype, identifiers
made safe from reserved words, typed literals that read back exactly, file names of ``#line``
directives, and the operator precedence table every printer of C text uses.

These are the pieces of the expression printer (`translator.codegen.cexpr`) that the complex
arithmetic, IR-function and registry modules need too; they live here, below all of them, so
that none of those modules imports another in a circle.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from translator.diagnostics import CodegenError
from translator.ir.expr import Expression, TypeCast

# C operator precedence, higher binds tighter.  Left-associative binary operators print their
# right operand at one level more, so ``a - (b - c)`` and ``a / (b * c)`` keep their parentheses
# (and float sums keep the IR's association exactly).
PRECEDENCE: dict[str, int] = {
    "?:": 3, "||": 4, "&&": 5, "|": 6, "^": 7, "&": 8, "==": 9, "!=": 9,
    "<": 10, "<=": 10, ">": 10, ">=": 10, "<<": 11, ">>": 11, "+": 12, "-": 12,
    "*": 13, "/": 13, "%": 13, "unary": 14, "postfix": 15, "atom": 16,
}
PREC_NONE = 0

#: Words that cannot be used as identifiers in C or OpenCL C; variables with these names are
#: printed with the reserved prefix (`safe_name`).
C_RESERVED = frozenset("""
auto break case char const continue default do double else enum extern float for goto if
inline int long register restrict return short signed sizeof static struct switch typedef
union unsigned void volatile while bool half uchar ushort uint ulong size_t ptrdiff_t
intptr_t uintptr_t kernel __kernel global __global local __local constant __constant private
__private read_only write_only read_write image2d_t image3d_t sampler_t event_t true false
min max abs fabs sqrt exp log pow floor ceil round trunc NULL INFINITY NAN get_local_id
get_group_id get_global_id barrier log10 sin cos tan asin acos atan atan2 sinh cosh tanh fmod
copysign fmin fmax pown signed main
""".split()) | frozenset("""
acosh acospi asinh asinpi atanh atanpi atan2pi cbrt cospi erf erfc exp2 exp10 expm1 fdim fma
fract frexp hypot ilogb ldexp lgamma lgamma_r log1p log2 logb mad maxmag minmag modf nan
nextafter pow powr remainder remquo rint rootn rsqrt sincos sinpi tanpi tgamma half_cos
half_divide half_exp half_exp2 half_exp10 half_log half_log2 half_log10 half_powr half_recip
half_rsqrt half_sin half_sqrt half_tan native_cos native_divide native_exp native_exp2
native_exp10 native_log native_log2 native_log10 native_powr native_recip native_rsqrt
native_sin native_sqrt native_tan abs_diff add_sat hadd rhadd clamp clz ctz mad_hi mad_sat
mul_hi rotate sub_sat upsample popcount mad24 mul24 degrees mix radians step smoothstep sign
cross dot distance length normalize fast_distance fast_length fast_normalize isequal
isnotequal isgreater isgreaterequal isless islessequal islessgreater isfinite isinf isnan
isnormal isordered isunordered signbit any all bitselect select vload_half vstore_half
vec_step shuffle shuffle2 mem_fence read_mem_fence write_mem_fence async_work_group_copy
async_work_group_strided_copy wait_group_events prefetch atomic_add atomic_sub atomic_xchg
atomic_inc atomic_dec atomic_cmpxchg atomic_min atomic_max atomic_and atomic_or atomic_xor
atom_add atom_sub atom_xchg atom_inc atom_dec atom_cmpxchg atom_min atom_max atom_and atom_or
atom_xor get_work_dim get_global_size get_local_size get_num_groups get_global_offset
read_imagef read_imagei read_imageui write_imagef write_imagei write_imageui
get_image_width get_image_height get_image_depth printf image1d_t image1d_buffer_t
image1d_array_t image2d_array_t cl_mem_fence_flags
""".split())

_C_TYPES = {
    "float32": "float", "float64": "double", "float16": "half",
    "int8": "char", "int16": "short", "int32": "int", "int64": "long",
    "uint8": "uchar", "uint16": "ushort", "uint32": "uint", "uint64": "ulong",
    # OpenCL's bool has no defined size: one byte, like numpy's, on both sides.
    "bool": "char",
    # Complex values: (real, imaginary) vectors, numpy's and Fortran's memory layout.
    "complex64": "float2", "complex128": "double2",
}


def line_directive_file(path: str) -> str:
    """`path` as the file name of a ``#line`` directive (C, OpenCL C, preprocessed Fortran):
    backslashes and quotes escaped, a line break (which would end the directive) as ``?``."""
    return path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "?")


def c_type_name(dtype: np.dtype) -> str:
    """The OpenCL C scalar type of a numpy dtype (``float32`` -> ``float``)."""
    name = np.dtype(dtype).name
    try:
        return _C_TYPES[name]
    except KeyError:
        raise CodegenError(f"data type {name} is not supported by the OpenCL target") from None


def safe_name(name: str) -> str:
    """`name`, or ``_tr_<name>`` if it is a C/OpenCL reserved word or the name of an OpenCL C
    built-in function (a kernel named ``dot`` would redefine the built-in)."""
    return f"_tr_{name}" if name in C_RESERVED else name


def is_float(dtype: np.dtype | None) -> bool:
    return dtype is not None and np.dtype(dtype).kind == "f"


def is_integer(dtype: np.dtype | None) -> bool:
    return dtype is not None and np.dtype(dtype).kind in "iub"


def _is_complex(dtype: np.dtype | None) -> bool:
    return dtype is not None and np.dtype(dtype).kind == "c"


# ---------------------------------------------------------------------------------------------
# literals

def int_literal(value: int, dtype: np.dtype | None = None) -> str:
    """An integer literal of `dtype` (default: int, or long where it does not fit in 32 bits)."""
    value = int(value)
    name = np.dtype(dtype).name if dtype is not None else None
    if name in (None, "int32", "bool") and -2**31 < value < 2**31:
        return str(value)
    if name == "int32" and value == -2**31:
        # the magnitude alone is a long: ``-2147483648L`` made max(int, long) ambiguous in
        # OpenCL (the neutral element of an int max reduction; fuzzer fortran:5133)
        return "(-2147483647 - 1)"
    if name in (None, "int32", "int64"):
        # -2**63 has no literal form: the magnitude alone overflows long.
        return "(-9223372036854775807L - 1)" if value == -2**63 else f"{value}L"
    if name in ("uint32", "uint64"):
        return f"{value}u" if name == "uint32" else f"{value}uL"
    return f"(({c_type_name(dtype)}){value})"


def float_literal(value: float, dtype: np.dtype | None = None) -> str:
    """A float literal that reads back to exactly `value` in `dtype` (default float64)."""
    dt = np.dtype(dtype) if dtype is not None else np.dtype(np.float64)
    if dt == np.float16:
        dt = np.dtype(np.float32)
    single = dt == np.float32
    v = np.float32(value) if single else np.float64(value)
    if math.isnan(v):
        return "NAN" if single else "((double)NAN)"
    if math.isinf(v):
        text = "INFINITY" if single else "((double)INFINITY)"
        return text if v > 0 else "(-" + text + ")"
    text = repr(float(v)) if not single else _shortest_float32(v)
    if "e" not in text and "." not in text and "inf" not in text:
        text += ".0"
    return text + ("f" if single else "")


def _shortest_float32(v: np.float32) -> str:
    # numpy prints the shortest string that reads back to the same float32.
    return str(np.float32(v))


def to_int_exponent(printer: Any, expr: Expression) -> Expression:
    """An integer exponent converted to int (pown's exponent type); `printer` gives the
    dtype of `expr` (its ``dtype_of``)."""
    dt = printer.dtype_of(expr)
    if isinstance(expr, (int, np.integer)) or dt is None or np.dtype(dt) == np.int32:
        return int(expr) if isinstance(expr, (int, np.integer)) else expr
    return TypeCast(np.dtype(np.int32), expr)


def negated_text(text: str) -> str:
    """``-text``; ``-(-j)`` where `text` starts with a minus (``--j`` is C's decrement, and
    ``--1`` does not compile)."""
    return f"-({text})" if text.startswith("-") else "-" + text
