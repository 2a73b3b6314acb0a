"""Complex arithmetic lowered to OpenCL C.

Complex values (numpy ``complex64`` / ``complex128``) are OpenCL ``float2`` / ``double2``
vectors: ``.x`` is the real part, ``.y`` the imaginary part, the memory layout of Fortran
``complex`` and of numpy arrays, so buffers pass unchanged.

Semantics (Fortran's, and numpy's for arrays): an operation with one real and one complex
operand first converts the real one to ``(x, 0)``, then works on complex values.  Addition,
subtraction and negation are the vector operations (component-wise, exact); multiplication is
``(ar*br - ai*bi, ar*bi + ai*br)``; division is Smith's algorithm, in the operation order that
gfortran uses, so that a region computes bit-identical results.  ``abs`` is ``hypot``.

IR functions on complex values, beyond `translator.ir.expr.IR_FUNCTIONS`:
``real(z)``, ``imag(z)``, ``conj(z)``, ``complex(x, y)`` (a complex from two reals; its
precision is that of the promoted real arguments).  ``abs``, ``sqrt``, ``exp``, ``log``, ``sin``
and ``cos`` accept complex arguments; ``z**n`` needs an integer exponent.

The printer (`translator.codegen.cexpr.CExpressionPrinter`) asks `print_complex` first for
every node: it returns the text when complex values are involved and None otherwise.  Helpers
(``_tr_cmul_float2`` ...) are recorded in the printer's ``helpers`` set as
``(kind, "complex64")`` entries; `complex_helper_definitions` prints them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
import pymbolic.primitives as p

from translator.codegen.cnames import (PRECEDENCE, c_type_name, float_literal, negated_text,
                                       to_int_exponent)
from translator.diagnostics import CodegenError
from translator.ir.expr import Expression, TypeCast
from translator.ir.mappers import reductions_in
from translator.ir.types import TypeOracle

COMPLEX64 = np.dtype(np.complex64)
COMPLEX128 = np.dtype(np.complex128)

#: IR functions that exist for complex values (lowered here, never by `math_functions`).
COMPLEX_FUNCTIONS = frozenset({"real", "imag", "conj", "complex"})
#: Math IR functions with a complex helper (``_tr_c<name>_<vector>``).
_COMPLEX_MATH = frozenset({"abs", "sqrt", "exp", "log", "sin", "cos"})
_ORDERED = frozenset({"<", "<=", ">", ">="})


# ---------------------------------------------------------------------------------------------
# types

def is_complex(dtype: np.dtype | None) -> bool:
    """Whether `dtype` is a complex type."""
    return dtype is not None and np.dtype(dtype).kind == "c"


def real_dtype(dtype: np.dtype) -> np.dtype:
    """The type of the parts of a complex type (complex64 -> float32)."""
    return np.dtype(np.float32) if np.dtype(dtype) == COMPLEX64 else np.dtype(np.float64)


def vector_type(dtype: np.dtype) -> str:
    """``float2`` / ``double2``."""
    return "float2" if np.dtype(dtype) == COMPLEX64 else "double2"


def scalar_type(dtype: np.dtype) -> str:
    return "float" if np.dtype(dtype) == COMPLEX64 else "double"


def complex_literal(value: complex, dtype: np.dtype) -> str:
    """``(float2)(1.0f, -2.0f)``: a complex constant of `dtype`, exact."""
    dt = np.dtype(dtype)
    v = dt.type(value)
    part = real_dtype(dt)
    return (f"({vector_type(dt)})({float_literal(float(v.real), part)}, "
            f"{float_literal(float(v.imag), part)})")


# ---------------------------------------------------------------------------------------------
# the printer hook

def print_complex(printer, expr: Expression, prec: int) -> str | None:
    """The C text of `expr` if it involves complex values, else None."""
    if isinstance(expr, (complex, np.complexfloating)):
        return _constant(printer, expr, prec)
    handler = _HANDLERS.get(type(expr))
    if handler is None:
        return None
    return handler(printer, expr, prec)


def _constant(printer, value, prec: int) -> str:
    if isinstance(value, np.complexfloating):
        dt = value.dtype
    else:   # a Python complex adopts the complex type around it
        ctx = printer._ctx
        dt = ctx if is_complex(ctx) else COMPLEX128
    _note_double(printer, dt)
    return _parens(printer, complex_literal(value, dt), "unary", prec)


def _note_double(printer, dtype: np.dtype) -> None:
    # The device printer tracks whether the kernel needs cl_khr_fp64.
    if np.dtype(dtype) == COMPLEX128 and hasattr(printer, "uses_fp64"):
        printer.uses_fp64 = True


def _parens(printer, text: str, level: str, prec: int) -> str:
    return printer.parens(text, PRECEDENCE[level], prec)


def _prec(level: str) -> int:
    return PRECEDENCE[level]


def _dtype(printer, expr: Expression) -> np.dtype | None:
    """The type `expr` is printed in: its own, or the enclosing complex type where it is
    built from Python literals only (``a * (1.0 - 2.0j)`` with complex64 ``a`` stays
    complex64)."""
    if isinstance(expr, np.generic):
        return expr.dtype
    ctx = printer._ctx if is_complex(printer._ctx) else None
    if isinstance(expr, complex):
        return ctx if ctx is not None else COMPLEX128
    dt = printer.dtype_of(expr)
    if dt is None:
        return None
    if ctx is not None and np.dtype(dt).kind in "cf" and isinstance(expr, p.ExpressionNode) \
            and printer.weak_of(expr):
        return ctx if np.dtype(dt).kind == "c" else real_dtype(ctx)
    return np.dtype(dt)


def operand(printer, expr: Expression, dtype: np.dtype, prec: int) -> str:
    """`expr` as a value of complex type `dtype`: complex values converted to its precision,
    real ones to ``(x, 0)``.  Python literals in `expr` adopt `dtype`."""
    dtype = np.dtype(dtype)
    saved = printer._ctx
    printer._ctx = dtype
    try:
        return _operand(printer, expr, dtype, prec)
    finally:
        printer._ctx = saved


def _operand(printer, expr: Expression, dtype: np.dtype, prec: int) -> str:
    own = _dtype(printer, expr)
    _note_double(printer, dtype)
    if own is not None and own == dtype:
        return printer.rec(expr, prec)
    if is_complex(own):
        inner = _in_complex_ctx(printer, own, expr, 0)
        return f"convert_{vector_type(dtype)}({inner})"
    part = real_dtype(dtype)
    text = _real_text(printer, expr, part)
    zero = _zero(part)
    return _parens(printer, f"({vector_type(dtype)})({text}, {zero})", "unary", prec)


def _zero(part: np.dtype) -> str:
    return float_literal(0.0, part)


def _real_text(printer, expr: Expression, part: np.dtype) -> str:
    """A real operand as a value of type `part` (a vector literal needs exact element types)."""
    if isinstance(expr, (bool, int, float, np.bool_, np.integer, np.floating)):
        expr = part.type(expr)     # numbers become typed constants of the part type
    return printer.in_ctx(part, printer._as(part, expr), 0)


def _in_complex_ctx(printer, dtype: np.dtype, expr: Expression, prec: int) -> str:
    saved = printer._ctx
    printer._ctx = np.dtype(dtype)
    try:
        return printer.rec(expr, prec)
    finally:
        printer._ctx = saved


def helper(printer, kind: str, dtype: np.dtype, args: Sequence[str]) -> str:
    """``_tr_<kind>_<vector>(args)``, recording the helper as used."""
    printer.helpers.add((kind, np.dtype(dtype).name))
    return f"_tr_{kind}_{vector_type(dtype)}({', '.join(args)})"


def _complex_node_type(printer, expr: Expression) -> np.dtype | None:
    dt = _dtype(printer, expr)
    return dt if is_complex(dt) else None


# -- arithmetic -----------------------------------------------------------------------------

def _sum(printer, expr: p.Sum, prec: int) -> str | None:
    dt = _complex_node_type(printer, expr)
    if dt is None:
        return None
    own = _prec("+")
    parts = [operand(printer, expr.children[0], dt, own)]
    for child in expr.children[1:]:
        neg = _negated(child)
        if neg is not None:
            parts.append("- " + operand(printer, neg, dt, own + 1))
        else:
            parts.append("+ " + operand(printer, child, dt, own + 1))
    return printer.parens(" ".join(parts), own, prec)


def _negated(expr: Expression) -> Expression | None:
    """y for ``(-1)*y`` and for a negative real literal -y (``z - 2.0`` subtracts (2, 0))."""
    if isinstance(expr, (int, float)) and not isinstance(expr, bool) and expr < 0:
        return -expr
    if isinstance(expr, p.Product) and len(expr.children) >= 2 and _is_minus_one(
            expr.children[0]):
        rest = expr.children[1:]
        return rest[0] if len(rest) == 1 else p.Product(rest)
    return None


def _is_minus_one(expr: Expression) -> bool:
    return (isinstance(expr, (int, float, np.integer, np.floating))
            and not isinstance(expr, bool) and expr == -1)


def _product(printer, expr: p.Product, prec: int) -> str | None:
    dt = _complex_node_type(printer, expr)
    if dt is None:
        return None
    children = expr.children
    if len(children) > 1 and _is_minus_one(children[0]):
        rest = children[1] if len(children) == 2 else p.Product(children[1:])
        return _parens(printer, negated_text(operand(printer, rest, dt, _prec("unary"))), "unary",
                       prec)
    text = operand(printer, children[0], dt, 0)
    for child in children[1:]:
        text = helper(printer, "cmul", dt, [text, operand(printer, child, dt, 0)])
    return text


def _quotient(printer, expr: p.Quotient, prec: int) -> str | None:
    dt = _complex_node_type(printer, expr)
    if dt is None:
        return None
    return helper(printer, "cdiv", dt, [operand(printer, expr.numerator, dt, 0),
                                        operand(printer, expr.denominator, dt, 0)])


def _floor_division(printer, expr, prec: int) -> str | None:
    if _complex_node_type(printer, expr) is None:
        return None
    what = "floor division" if isinstance(expr, p.FloorDiv) else "modulo"
    raise CodegenError(f"{what} of complex values is not defined ({expr})")


def _power(printer, expr: p.Power, prec: int) -> str | None:
    dt = _complex_node_type(printer, expr)
    if dt is None:
        return None
    exponent = expr.exponent
    edt = _dtype(printer, exponent)
    integral = isinstance(exponent, (int, np.integer)) and not isinstance(exponent, bool)
    if not integral and (edt is None or edt.kind not in "iu"):
        raise CodegenError(f"complex power with a non-integer exponent ({expr}) is not "
                           "supported by the OpenCL target (only integer exponents are)")
    if integral and -4 <= int(exponent) <= 4:
        return _small_power(printer, expr.base, int(exponent), dt, prec)
    n = printer.rec(to_int_exponent(printer, exponent), 0)
    return helper(printer, "cpowi", dt, [operand(printer, expr.base, dt, 0), n])


def _small_power(printer, base: Expression, n: int, dt: np.dtype, prec: int) -> str:
    """z**n for |n| <= 4 by multiplications (z**4 = (z*z)*(z*z)), of 1/z for n < 0, as
    gfortran expands constant integer powers of complex values."""
    if n == 0:
        return _constant(printer, dt.type(1), prec)
    if n == 1:
        return operand(printer, base, dt, prec)
    z = operand(printer, base, dt, 0)
    if n < 0:
        z = helper(printer, "cdiv", dt, [complex_literal(1, dt), z])
    if abs(n) == 4:
        sq = helper(printer, "cmul", dt, [z, z])
        return helper(printer, "cmul", dt, [sq, sq])
    text = z
    for _ in range(abs(n) - 1):
        text = helper(printer, "cmul", dt, [text, z])
    return text


def _if(printer, expr: p.If, prec: int) -> str | None:
    dt = _complex_node_type(printer, expr)
    if dt is None:
        return None
    own = _prec("?:")
    text = (f"{printer.rec(expr.condition, own + 1)} ? {operand(printer, expr.then, dt, own + 1)}"
            f" : {operand(printer, expr.else_, dt, own)}")
    return printer.parens(text, own, prec)


def _is_weak(printer, expr: Expression) -> bool:
    if isinstance(expr, (int, float, complex)):
        return True
    return isinstance(expr, p.ExpressionNode) and printer.weak_of(expr)


def _ordering_error(what: str) -> CodegenError:
    return CodegenError(f"complex values have no order: {what} is not defined for them")


def _min_max(printer, expr, prec: int) -> str | None:
    if any(is_complex(_dtype(printer, c)) for c in expr.children):
        raise _ordering_error("min/max")
    return None


def _comparison(printer, expr: p.Comparison, prec: int) -> str | None:
    operands = (expr.left, expr.right)
    dts = [_dtype(printer, o) for o in operands]
    complexes = [d for d in dts if is_complex(d)]
    if not complexes:
        return None
    if expr.operator in _ORDERED:
        raise _ordering_error(f"comparison with {expr.operator}")
    # Python literals adapt to the other side (a complex64 value == 2.0j compares in complex64)
    strong = [d for o, d in zip(operands, dts) if is_complex(d) and not _is_weak(printer, o)]
    dt = np.result_type(*(strong or complexes))
    text = helper(printer, "ceq", dt, [operand(printer, expr.left, dt, 0),
                                       operand(printer, expr.right, dt, 0)])
    if expr.operator == "!=":
        return _parens(printer, "!" + text, "unary", prec)
    return text


# -- conversions and functions ------------------------------------------------------------------

def _type_cast(printer, expr: TypeCast, prec: int) -> str | None:
    target = np.dtype(expr.dtype)
    own = _dtype(printer, expr.child)
    if is_complex(target):
        return operand(printer, expr.child, target, prec)
    if not is_complex(own):
        return None
    return _part(printer, expr.child, own, "x", target, prec)


def _part(printer, z: Expression, dt: np.dtype, component: str, target: np.dtype | None,
          prec: int) -> str:
    """``z.x`` / ``z.y``, converted to `target` where it differs from the part type."""
    text = f"{_in_complex_ctx(printer, dt, z, _prec('postfix'))}.{component}"
    if target is None or np.dtype(target) == real_dtype(dt):
        return text
    return _parens(printer, f"({c_type_name(target)}) {text}", "unary", prec)


def _call(printer, expr: p.Call, prec: int) -> str | None:
    name = getattr(expr.function, "name", None)
    args = expr.parameters
    dts = [_dtype(printer, a) for a in args]
    if name in COMPLEX_FUNCTIONS:
        return _complex_function(printer, expr, name, args, dts, prec)
    if not any(is_complex(d) for d in dts):
        return None
    if name in ("min", "max"):
        raise _ordering_error(name)
    if name not in _COMPLEX_MATH or len(args) != 1:
        raise CodegenError(f"function {name}() of complex values is not supported by the "
                           f"OpenCL target (supported: {', '.join(sorted(_COMPLEX_MATH))})")
    dt = dts[0]
    return helper(printer, "c" + name, dt, [operand(printer, args[0], dt, 0)])


def _complex_function(printer, expr: p.Call, name: str, args: tuple, dts: list,
                      prec: int) -> str:
    want = 2 if name == "complex" else 1
    if not (len(args) == want or (name == "complex" and len(args) == 1)):
        raise CodegenError(f"{name}() takes {want} argument(s), got {len(args)}")
    if name == "complex":
        return _make_complex(printer, expr, args, dts, prec)
    z, dt = args[0], dts[0]
    if not is_complex(dt):
        # real(x) and conj(x) of a real x are x; imag(x) is zero
        if name == "imag":
            return printer.rec(_zero_of(dt), prec)
        return printer.rec(z, prec)
    if name == "conj":
        return helper(printer, "conj", dt, [operand(printer, z, dt, 0)])
    return _part(printer, z, dt, "x" if name == "real" else "y", None, prec)


def _zero_of(dtype: np.dtype | None) -> Expression:
    if dtype is None or np.dtype(dtype).kind not in "iuf":
        return 0
    return np.dtype(dtype).type(0)


def _make_complex(printer, expr: p.Call, args: tuple, dts: list, prec: int) -> str:
    dt = _dtype(printer, expr)
    if not is_complex(dt):
        dt = COMPLEX128
    if len(args) == 1:
        return operand(printer, args[0], dt, prec)
    if any(is_complex(d) for d in dts):
        raise CodegenError(f"complex(x, y) needs real arguments ({expr})")
    part = real_dtype(dt)
    _note_double(printer, dt)
    text = (f"({vector_type(dt)})({_real_text(printer, args[0], part)}, "
            f"{_real_text(printer, args[1], part)})")
    return _parens(printer, text, "unary", prec)


_HANDLERS: dict[type, Callable] = {
    p.Sum: _sum, p.Product: _product, p.Quotient: _quotient, p.FloorDiv: _floor_division,
    p.Remainder: _floor_division, p.Power: _power, p.If: _if, p.Min: _min_max,
    p.Max: _min_max, p.Comparison: _comparison, TypeCast: _type_cast, p.Call: _call,
}
#: The expression node classes `print_complex` may print (any other prints as real).
COMPLEX_NODES = frozenset(_HANDLERS)


def assignment_value(expression: Expression, target: np.dtype | None,
                     dtype_of: Callable[[Expression], np.dtype | None]) -> Expression:
    """The right-hand side of an assignment to a `target`-typed variable, converted where a
    complex value meets a real one (a real stored into a complex variable is ``(x, 0)``, a
    complex stored into a real one keeps its real part, as numpy's casts do)."""
    if target is None:
        return expression
    tgt = np.dtype(target)
    if isinstance(expression, complex):
        return expression if is_complex(tgt) else TypeCast(tgt, expression)
    own = dtype_of(expression)
    if own is None or np.dtype(own) == tgt:
        return expression
    if is_complex(tgt) or is_complex(own):
        return TypeCast(tgt, expression)
    return expression


# ---------------------------------------------------------------------------------------------
# checks before code generation

def check_complex_reductions(kernel) -> None:
    """Reductions that have no meaning on complex values (max, min) are refused with the
    statement's span (types must be known)."""
    oracle = TypeOracle(kernel)
    for stmt in kernel.statements:
        for red in reductions_in(stmt.read_expressions()):
            if red.operation in ("max", "min") and is_complex(oracle(red.expr)):
                raise CodegenError(f"statement {stmt.id!r}: {red.operation} reduction of "
                                   "complex values (complex values have no order)", stmt.span)


# ---------------------------------------------------------------------------------------------
# helper definitions (preamble)

#: Helpers in definition order (a helper only calls helpers listed before it).
_ORDER = ("conj", "cmul", "cdiv", "ceq", "cabs", "csqrt", "cexp", "clog", "csin", "ccos",
          "cpowi")
_DEPENDS = {"cpowi": ("cmul", "cdiv")}


def is_complex_helper(entry: tuple[str, str]) -> bool:
    """Whether a ``(kind, dtype name)`` entry of a printer's helpers is a complex helper."""
    return entry[1] in ("complex64", "complex128")


def complex_helper_definitions(helpers: Iterable[tuple[str, str]]) -> str:
    """C definitions of the complex helpers among `helpers` (and those they call), in a fixed
    order: float2 ones first, then double2."""
    wanted = {(k, d) for k, d in helpers if d in ("complex64", "complex128")}
    for kind, dt in list(wanted):
        wanted.update((dep, dt) for dep in _DEPENDS.get(kind, ()))
    out = []
    for dt in ("complex64", "complex128"):
        out.extend(_definition(kind, dt) for kind in _ORDER if (kind, dt) in wanted)
    return "".join(out)


def _definition(kind: str, dtype_name: str) -> str:
    v, s = vector_type(dtype_name), scalar_type(dtype_name)
    zero, one, two = ("0.0f", "1.0f", "2.0f") if s == "float" else ("0.0", "1.0", "2.0")
    name = f"_tr_{kind}_{v}"
    bodies = {
        "conj": (f"{v} {name}({v} a)", f"  return ({v})(a.x, -a.y);\n"),
        "cmul": (f"{v} {name}({v} a, {v} b)",
                 f"  return ({v})(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n"),
        "cdiv": (f"{v} {name}({v} a, {v} b)", _smith(v, s)),
        "ceq": (f"int {name}({v} a, {v} b)", "  return a.x == b.x && a.y == b.y;\n"),
        "cabs": (f"{s} {name}({v} a)", "  return hypot(a.x, a.y);\n"),
        "csqrt": (f"{v} {name}({v} a)", _csqrt(v, s, zero, two)),
        "cexp": (f"{v} {name}({v} a)",
                 f"  {s} e = exp(a.x);\n  return ({v})(e * cos(a.y), e * sin(a.y));\n"),
        "clog": (f"{v} {name}({v} a)", f"  return ({v})(log(hypot(a.x, a.y)), atan2(a.y, a.x));\n"),
        "csin": (f"{v} {name}({v} a)",
                 f"  return ({v})(sin(a.x) * cosh(a.y), cos(a.x) * sinh(a.y));\n"),
        "ccos": (f"{v} {name}({v} a)",
                 f"  return ({v})(cos(a.x) * cosh(a.y), -(sin(a.x) * sinh(a.y)));\n"),
        "cpowi": (f"{v} {name}({v} a, int n)", _cpowi(v, zero, one)),
    }
    head, body = bodies[kind]
    return f"static inline {head}\n{{\n{body}}}\n\n"


def _smith(v: str, s: str) -> str:
    # Smith's division, operation for operation as gfortran expands it (bit-identical results).
    return (f"  /* Smith's algorithm: scale by the larger part of b (no overflow in |b|^2) */\n"
            f"  {s} ratio, div, tr, ti;\n"
            "  if (fabs(b.x) < fabs(b.y)) {\n"
            "    ratio = b.x / b.y;\n    div = b.x * ratio + b.y;\n"
            "    tr = a.x * ratio + a.y;\n    ti = a.y * ratio - a.x;\n"
            "  } else {\n"
            "    ratio = b.y / b.x;\n    div = b.y * ratio + b.x;\n"
            "    tr = a.y * ratio + a.x;\n    ti = a.y - a.x * ratio;\n"
            "  }\n"
            f"  return ({v})(tr / div, ti / div);\n")


def _csqrt(v: str, s: str, zero: str, two: str) -> str:
    # The principal root, without cancellation: t = sqrt((|x| + |z|) / 2) is the larger part.
    return (f"  if (a.x == {zero} && a.y == {zero})\n    return ({v})({zero}, a.y);\n"
            f"  {s} t = sqrt((fabs(a.x) + hypot(a.x, a.y)) / {two});\n"
            f"  if (a.x >= {zero})\n    return ({v})(t, a.y / ({two} * t));\n"
            f"  return ({v})(fabs(a.y) / ({two} * t), copysign(t, a.y));\n")


def _cpowi(v: str, zero: str, one: str) -> str:
    # Binary powering as libgfortran's pow_c*_i* does it; a negative n inverts first.
    return (f"  {v} r = ({v})({one}, {zero});\n"
            "  unsigned int u = (n < 0) ? -(unsigned int) n : (unsigned int) n;\n"
            f"  if (n < 0)\n    a = _tr_cdiv_{v}(r, a);\n"
            "  while (u != 0) {\n"
            f"    if (u & 1u)\n      r = _tr_cmul_{v}(r, a);\n"
            "    u >>= 1;\n"
            f"    if (u != 0)\n      a = _tr_cmul_{v}(a, a);\n"
            "  }\n  return r;\n")


__all__ = ["COMPLEX_FUNCTIONS", "COMPLEX_NODES", "assignment_value", "check_complex_reductions",
           "complex_helper_definitions", "complex_literal", "is_complex",
           "is_complex_helper", "operand", "print_complex", "real_dtype", "vector_type"]
