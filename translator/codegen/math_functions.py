"""IR math functions lowered to OpenCL C built-ins, and the helper functions the printer uses.

OpenCL overload resolution is strict (``sqrt(int)`` and ``min(int, long)`` do not compile), so
operands are converted to the call's type where theirs differ, and ``abs`` of an integer (which
OpenCL returns unsigned) is cast back to the signed type.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pymbolic.primitives as p

from translator.codegen.cnames import PRECEDENCE, c_type_name, is_float
from translator.codegen.registry import print_user_call
from translator.diagnostics import CodegenError
from translator.ir.expr import (INT_RESULT_FUNCTIONS, INTEGER_FUNCTIONS, IR_FUNCTIONS, MATH_ARITY,
                                Expression)

if TYPE_CHECKING:
    from translator.codegen.cexpr import CExpressionPrinter

#: IR functions whose OpenCL name is the same and that take and return floats.
_FLOAT_FUNCTIONS = frozenset({
    "sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
    "sinh", "cosh", "tanh", "fmod", "copysign", *MATH_ARITY,
})
#: Rounding functions: the identity on integers.
_ROUNDING = frozenset({"floor", "ceil", "trunc", "round"})

_ARITY = {"atan2": 2, "fmod": 2, "copysign": 2, "pow": 2, "rem": 2, "ldexp": 2, **MATH_ARITY}


def print_ir_function(printer: CExpressionPrinter, name: str, args: Sequence[Expression],
                      dtype: np.dtype | None, prec: int) -> str:
    """Print ``name(args)`` (an IR function of result type `dtype`) as C."""
    # A function the kernel registered wins, even over an IR function of the same name.
    user = print_user_call(printer, name, tuple(args), prec)
    if user is not None:
        return user
    if name not in IR_FUNCTIONS:
        raise CodegenError(f"unknown function {name!r} (IR functions: "
                           f"{', '.join(sorted(IR_FUNCTIONS))}; register others with "
                           "register_function)")
    _check_arity(name, args)
    if name in ("min", "max"):
        return printer.min_max(name, args, dtype, prec)
    if name == "abs":
        return _abs(printer, args[0], dtype, prec)
    if name == "rem":
        if is_float(dtype):
            return _float_call(printer, "fmod", args, dtype, prec)
        return printer.binary("%", args[0], args[1], prec)
    if name == "pow":
        return printer.map_power(p.Power(args[0], args[1]), prec)
    if name in INTEGER_FUNCTIONS:
        if dtype is None or np.dtype(dtype).kind not in "iu":
            raise CodegenError(f"{name} takes an integer, not {dtype}")
        return printer.call(name, [printer._as(np.dtype(dtype), args[0])], prec, np.dtype(dtype))
    if name == "ldexp" or name in INT_RESULT_FUNCTIONS:
        return _mixed_call(printer, name, args, dtype, prec)
    if name in _ROUNDING and not is_float(dtype):
        return printer.rec(args[0], prec) if dtype is None else \
            printer.rec(printer._as(np.dtype(dtype), args[0]), prec)
    if name in _ROUNDING or name in _FLOAT_FUNCTIONS:
        if dtype is not None and not is_float(dtype):
            raise CodegenError(f"{name} of type {np.dtype(dtype).name}: expected a float")
        return _float_call(printer, name, args, dtype or np.dtype(np.float64), prec)
    raise CodegenError(f"function {name!r} is not supported by the OpenCL target")


def _check_arity(name: str, args: Sequence[Expression]) -> None:
    want = _ARITY.get(name, None if name in ("min", "max") else 1)
    if want is None:
        if not args:
            raise CodegenError(f"{name} needs at least one argument")
    elif len(args) != want:
        raise CodegenError(f"{name} takes {want} argument(s), got {len(args)}")


def _float_call(printer: CExpressionPrinter, name: str, args: Sequence[Expression],
                dtype: np.dtype, prec: int) -> str:
    dt = np.dtype(dtype)
    return printer.call(name, [printer._as(dt, a) for a in args], prec, dt)


def _mixed_call(printer: CExpressionPrinter, name: str, args: Sequence[Expression],
                dtype: np.dtype | None, prec: int) -> str:
    """``ldexp(x, n)`` (x of the result's float type, n an int) and the int-valued functions
    of one float (their argument keeps its float type; an integer becomes a double)."""
    if name == "ldexp":
        dt = np.dtype(dtype) if is_float(dtype) else np.dtype(np.float64)
        return printer.call(name, [printer._as(dt, args[0]),
                                   printer._as(np.dtype(np.int32), args[1])], prec)
    own = printer.dtype_of(args[0])
    dt = np.dtype(own) if is_float(own) else np.dtype(np.float64)
    return printer.call(name, [printer._as(dt, args[0])], prec, dt)


def _abs(printer: CExpressionPrinter, arg: Expression, dtype: np.dtype | None,
         prec: int) -> str:
    if is_float(dtype):
        return _float_call(printer, "fabs", [arg], np.dtype(dtype), prec)
    if dtype is not None and np.dtype(dtype).kind in "ub":
        return printer.rec(arg, prec)
    if printer.target != "opencl":
        name = "labs" if dtype is not None and np.dtype(dtype).itemsize == 8 else "abs"
        return printer.call(name, [arg], prec)
    # OpenCL's abs(int) returns uint: cast back, or `abs(x) - 5` would wrap around.
    dt = np.dtype(dtype) if dtype is not None else np.dtype(np.int32)
    inner = printer.call("abs", [printer._as(dt, arg)], PRECEDENCE["unary"], dt)
    return printer.parens(f"({c_type_name(dt)}) {inner}", PRECEDENCE["unary"], prec)


# ---------------------------------------------------------------------------------------------
# helper definitions (preamble)

def helper_definition(kind: str, dtype_name: str) -> str:
    """The C definition of helper ``_tr_<kind>_<dtype_name>``."""
    t = c_type_name(np.dtype(dtype_name))
    name = f"_tr_{kind}_{dtype_name}"
    if kind in _POWI:
        return _POWI[kind].format(t=t, name=name)
    head = f"static inline {t} {name}({t} a, {t} b)\n{{\n"
    if kind == "floordiv":
        body = (f"  {t} q = a / b;\n"
                "  /* C truncates toward zero; floor differs when the signs differ */\n"
                "  return (q * b != a && ((a < 0) != (b < 0))) ? q - 1 : q;\n")
    elif kind == "floormod" and np.dtype(dtype_name).kind == "f":
        body = (f"  {t} r = fmod(a, b);\n"
                "  /* the result takes the sign of the divisor, a zero too (gfortran's\n"
                "     MODULO, Python's %) */\n"
                "  if (r == 0)\n"
                f"    return copysign(({t}) 0, b);\n"
                "  return ((r < 0) != (b < 0)) ? r + b : r;\n")
    elif kind == "floormod":
        body = (f"  {t} r = a % b;\n"
                "  /* the result takes the sign of the divisor */\n"
                "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n")
    elif kind == "ipow":
        body = ("  /* integer power; a negative exponent truncates 1/a**-b toward zero */\n"
                "  if (b < 0)\n"
                "    return (a == 1) ? 1 : ((a == -1) ? ((b % 2 == 0) ? 1 : -1) : 0);\n"
                f"  {t} r = 1;\n"
                "  while (b > 0) {\n"
                "    if (b & 1)\n      r *= a;\n"
                "    a *= a;\n    b >>= 1;\n  }\n  return r;\n")
    else:
        raise AssertionError(f"unknown helper {name}")   # a bug: exit 2
    return head + body + "}\n\n"



#: Real to an integer power by right-to-left binary powering, in the two orders gfortran
#: uses: a 32-bit exponent as libgcc's ``__builtin_powi`` (power first, then 1/y for m < 0),
#: a 64-bit one as libgfortran's ``pow_r*_i8`` (x inverted first).  Same operations, same bits.
_POWI = {
    "powi": (
        "static inline {t} {name}({t} x, int m)\n{{\n"
        "  unsigned int n = m < 0 ? 0u - (unsigned int) m : (unsigned int) m;\n"
        "  {t} y = (n & 1u) ? x : ({t}) 1;\n"
        "  while (n >>= 1) {{\n"
        "    x = x * x;\n"
        "    if (n & 1u)\n      y = y * x;\n"
        "  }}\n"
        "  return m < 0 ? ({t}) 1 / y : y;\n}}\n\n"),
    "powil": (
        "static inline {t} {name}({t} x, long m)\n{{\n"
        "  unsigned long n = m < 0 ? 0ul - (unsigned long) m : (unsigned long) m;\n"
        "  {t} y = 1;\n"
        "  if (m < 0)\n    x = y / x;\n"
        "  while (n != 0) {{\n"
        "    if (n & 1ul)\n      y = y * x;\n"
        "    n >>= 1;\n"
        "    if (n != 0)\n      x = x * x;\n"
        "  }}\n"
        "  return y;\n}}\n\n"),
}
