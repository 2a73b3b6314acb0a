"""Typed Fortran values and the operations on them: conversions, arithmetic and powers with
Fortran's type rules, comparisons, logical operators, and readable integer index arithmetic.

A `Typed` pairs an IR expression with its Fortran type.  These functions sit below both the
expression builder (`frontends.fortran.expressions`) and the intrinsic functions
(`frontends.fortran.intrinsics`), which use them; neither of those two imports the other's
users back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.types import LOGICAL, REAL, FType, promote
from translator.diagnostics import FrontendError, SourceSpan, UnsupportedConstructError
from translator.ir.expr import Expression, TypeCast, extend_chain
from translator.records import dataclass

if TYPE_CHECKING:
    from frontends.fortran.expressions import ExprBuilder


@dataclass(frozen=True, slots=True)
class Typed:
    expr: Expression
    ftype: FType


def call(name: str, *args: Any) -> p.Call:
    return p.Call(p.Variable(name), tuple(args))


# ---------------------------------------------------------------------------------------------
# typed operations

def is_constant(e: Expression) -> bool:
    return isinstance(e, np.generic)


def ftype_of(dtype: np.dtype) -> FType:
    """The Fortran type of a numpy dtype (logicals are integers in the IR)."""
    dt = np.dtype(dtype)
    base = {"f": "real", "i": "integer", "u": "integer", "c": "complex", "b": "logical"}[dt.kind]
    return FType(base, dt.itemsize // 2 if base == "complex" else dt.itemsize)


def cast(t: Typed, target: FType) -> Expression:
    """`t` converted to `target` (constants are converted in place)."""
    if t.ftype == target or (target.base == "logical" and t.ftype.base == "logical"):
        return t.expr
    if is_constant(t.expr) or (isinstance(t.expr, int) and not isinstance(t.expr, bool)):
        value = t.expr
        if t.ftype.base == "complex" and target.base != "complex":
            value = np.real(value)      # a complex converts to a real through its real part
        if target.base == "integer":
            value = int(np.trunc(value))
        return target.dtype.type(value)
    if t.ftype.base == "complex" and target.base != "complex":
        part = FType("real", t.ftype.kind)
        return cast(Typed(p.Call(p.Variable("real"), (t.expr,)), part), target)
    return TypeCast(target.dtype, t.expr)


def operand(t: Typed, result: FType) -> Expression:
    """Convert an operand of a numeric operation only where numpy promotion would differ
    (a real operand of a complex operation is converted to (x, 0) by the target)."""
    if t.ftype.base == result.base:
        return t.expr
    if (t.ftype.base, result.base) == ("real", "complex") and not is_constant(t.expr):
        return t.expr
    # (constants become complex here, so that `z - 2.0` subtracts exactly (2.0, 0.0))
    return cast(t, result)


def negate(e: Expression) -> Expression:
    if is_constant(e):
        return e.dtype.type(-e)
    if isinstance(e, int):
        return -e
    if isinstance(e, p.Product) and e.children and e.children[0] == -1:
        rest = e.children[1:]
        return rest[0] if len(rest) == 1 else p.Product(rest)
    return p.Product((-1, e))


def arith(a: Typed, op: str, b: Typed, builder: ExprBuilder,
          span: SourceSpan | None = None) -> Typed:
    """``a op b`` (op one of + - * / **); `span` is the operator's, for errors in constants."""
    for t in (a, b):
        if not t.ftype.is_numeric:
            raise builder.error(f"arithmetic operator {op} applied to {t.ftype.base} data")
    if op == "**":
        return power(a, b, builder, span)
    result = promote(a.ftype, b.ftype)
    x, y = operand(a, result), operand(b, result)
    if is_constant(x) and is_constant(y):
        return Typed(fold(x, op, y, result, builder, span), result)
    chain = a.ftype == result   # no conversion between a chain's operations
    if op == "+":
        return Typed(extend_chain(p.Sum, x, y, chain), result)
    if op == "-":
        return Typed(extend_chain(p.Sum, x, negate(y), chain), result)
    if op == "*":
        return Typed(extend_chain(p.Product, x, y, chain), result)
    return Typed(p.Quotient(x, y), result)


def fold(x: np.generic, op: str, y: np.generic, result: FType, builder: ExprBuilder,
         span: SourceSpan | None = None) -> np.generic:
    """Constant arithmetic with Fortran semantics (integer division truncates)."""
    if result.base == "integer":
        a, b = int(x), int(y)
        if op == "/":
            if b == 0:
                raise FrontendError("integer division by zero in a constant expression",
                                    span or builder.ctx.span())
            q = abs(a) // abs(b)
            value = q if (a >= 0) == (b >= 0) else -q
        else:
            value = {"+": a + b, "-": a - b, "*": a * b}[op]
        return in_range(value, result, f"{a} {op} {b}", span or builder.ctx.span())
    dt = result.dtype.type
    a, b = dt(x), dt(y)
    with np.errstate(all="ignore"):
        return dt({"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op])


def compare(a: Typed, op: str, b: Typed) -> Typed:
    if a.ftype.is_numeric and b.ftype.is_numeric:
        common = promote(a.ftype, b.ftype)
        if common.base == "complex" and op not in ("==", "!="):
            raise FrontendError(f"complex values have no order: they can only be compared "
                                f"with == and /= (not {op})")
        return Typed(p.Comparison(operand(a, common), op, operand(b, common)), LOGICAL)
    return Typed(p.Comparison(a.expr, op, b.expr), LOGICAL)


def logical_op(a: Typed, op: str, b: Typed, builder: ExprBuilder) -> Typed:
    for t in (a, b):
        if t.ftype.base != "logical":
            raise builder.error(f"logical operator {op} applied to {t.ftype.base} data")
    if op == ".AND.":
        return Typed(p.LogicalAnd((a.expr, b.expr)), LOGICAL)
    if op == ".OR.":
        return Typed(p.LogicalOr((a.expr, b.expr)), LOGICAL)
    # logical values are 0 or 1 (gfortran's .true. is 1), and comparisons give 0 or 1 too
    rel = "==" if op == ".EQV." else "!="
    return Typed(p.Comparison(as_truth(a.expr), rel, as_truth(b.expr)), LOGICAL)


def as_truth(e: Expression) -> Expression:
    """A logical expression whose value is exactly 0 or 1."""
    if isinstance(e, (p.Comparison, p.LogicalAnd, p.LogicalOr, p.LogicalNot)):
        return e
    return p.Comparison(e, "!=", 0)


# ---------------------------------------------------------------------------------------------
# integer index arithmetic, kept readable (affine forms are normalised)

def linear_terms(e: Expression) -> dict[Any, int] | None:
    """`e` as {Variable or 1: coefficient} if it is an integer linear form, else None."""
    if isinstance(e, (int, np.integer)) and not isinstance(e, bool):
        return {1: int(e)}
    if isinstance(e, p.Variable):
        return {e: 1}
    if isinstance(e, p.Sum):
        out: dict[Any, int] = {}
        for c in e.children:
            t = linear_terms(c)
            if t is None:
                return None
            for k, v in t.items():
                out[k] = out.get(k, 0) + v
        return out
    if isinstance(e, p.Product):
        coeff, rest = 1, None
        for c in e.children:
            if isinstance(c, (int, np.integer)):
                coeff *= int(c)
            elif rest is None:
                rest = linear_terms(c)
                if rest is None:
                    return None
            else:
                return None
        if rest is None:
            return {1: coeff}
        return {k: v * coeff for k, v in rest.items()}
    return None


def from_linear(terms: dict[Any, int]) -> Expression:
    parts: list[Expression] = []
    for k, v in terms.items():
        if k == 1 or v == 0:
            continue
        parts.append(k if v == 1 else p.Product((v, k)))
    if terms.get(1, 0) or not parts:
        parts.append(terms.get(1, 0))
    return parts[0] if len(parts) == 1 else p.Sum(tuple(parts))


def add_expr(a: Expression, b: Expression, const: int = 0, sign: int = 1) -> Expression:
    """a + sign*b + const, normalised when both are integer linear forms."""
    ta, tb = linear_terms(a), linear_terms(b)
    if ta is not None and tb is not None:
        out = dict(ta)
        for k, v in tb.items():
            out[k] = out.get(k, 0) + sign * v
        out[1] = out.get(1, 0) + const
        return from_linear(out)
    parts = [a, b if sign == 1 else negate(b)]
    if const:
        parts.append(const)
    return p.Sum(tuple(parts))


def sub_expr(a: Expression, b: Expression) -> Expression:
    """a - b, normalised (subscript shifting by a lower bound)."""
    return add_expr(a, b, 0, -1)


def section_index(first: Expression, stride: int, iname: p.Variable,
                  lower: Expression) -> Expression:
    """The 0-based index of a section axis: first + stride*iname - lower."""
    step = iname if stride == 1 else p.Product((stride, iname))
    return sub_expr(add_expr(first, step), lower)


def as_float(t: Typed, default: FType = REAL) -> Typed:
    """Integer arguments of real-only intrinsics become reals of the default kind (reals and
    complexes stay as they are)."""
    if t.ftype.base in ("real", "complex"):
        return t
    return Typed(cast(t, default), default)


# ---------------------------------------------------------------------------------------------
# powers

def power(a: Typed, b: Typed, builder: ExprBuilder, span: SourceSpan | None = None) -> Typed:
    """``a ** b``: small constant integer exponents multiply out, the rest calls pow; an
    integer to an integer power stays an exact integer power."""
    if a.ftype.base == "integer" and b.ftype.base == "integer":
        return _integer_power(a, b, span or builder.ctx.span())
    if b.ftype.base == "integer" and is_constant(b.expr):
        e = int(b.expr)
        if is_constant(a.expr) and a.ftype.base == "real":
            return Typed(a.ftype.dtype.type(a.expr ** e), a.ftype)
        if e == 0:
            return Typed(a.ftype.dtype.type(1), a.ftype)
        if 1 <= abs(e) <= 4:
            if e < 0 and a.ftype.base == "complex":
                # gfortran inverts a complex base first: z**(-2) is (1/z)*(1/z)
                inverse = p.Quotient(a.ftype.dtype.type(1), a.expr)
                return Typed(_power_product(inverse, -e), a.ftype)
            prod = _power_product(a.expr, abs(e))
            if e > 0:
                return Typed(prod, a.ftype)
            return Typed(p.Quotient(a.ftype.dtype.type(1), prod), a.ftype)
    if "complex" in (a.ftype.base, b.ftype.base):
        return _complex_power(a, b, builder)
    if b.ftype.base == "integer":
        # repeated squaring in the target, as gfortran (not pow: other rounding)
        return Typed(p.Power(a.expr, b.expr), a.ftype)
    t = promote(a.ftype, b.ftype)
    # both arguments of the same type: OpenCL has no pow(float, double) overload
    return Typed(call("pow", cast(a, t), cast(b, t)), t)


def _integer_power(a: Typed, b: Typed, span: SourceSpan | None) -> Typed:
    """``i ** j`` of integers, in the kind of the wider one: folded (and checked for overflow)
    when both are constants, else an exact power in the target (repeated squaring; a negative
    exponent gives 1/i**-j truncated, 0 for i = 0 as gfortran's run time gives)."""
    result = promote(a.ftype, b.ftype)
    if is_constant(a.expr) and is_constant(b.expr):
        base, exponent = int(a.expr), int(b.expr)
        if base == 0 and exponent < 0:
            raise FrontendError(f"division by zero in a constant expression: 0**({exponent})",
                                span)
        value = integer_power(base, exponent)
        return Typed(in_range(value, result, f"{base}**{exponent}", span), result)
    return Typed(p.Power(operand(a, result), b.expr), result)


def integer_power(base: int, exponent: int) -> int:
    """Fortran's integer ``base ** exponent`` (exact; a negative exponent truncates 1/b**-e)."""
    if exponent >= 0:
        return base ** exponent
    if base == 1:
        return 1
    if base == -1:
        return 1 if exponent % 2 == 0 else -1
    return 0


def in_range(value: int, result: FType, what: str, span: SourceSpan | None) -> np.generic:
    """`value` as a constant of the integer type `result`; an error where it does not fit
    (gfortran rejects such a constant expression too)."""
    info = np.iinfo(result.dtype)
    if not info.min <= value <= info.max:
        raise FrontendError(f"arithmetic overflow in a constant expression: {what} = {value} "
                            f"exceeds the range of {result}", span)
    return result.dtype.type(value)


def _complex_power(a: Typed, b: Typed, builder: ExprBuilder) -> Typed:
    """``z ** n`` with an integer n (binary powering in the target); other exponents of
    complex values are refused."""
    if a.ftype.base == "complex" and b.ftype.base == "integer":
        return Typed(p.Power(a.expr, b.expr), a.ftype)
    raise UnsupportedConstructError(
        f"complex power with a {b.ftype.base} exponent ({a.ftype} ** {b.ftype}) is not "
        "supported (only integer exponents of complex values are)", builder.ctx.span())


def _power_product(x: Any, e: int) -> Any:
    if e == 1:
        return x
    if e == 4:
        sq = p.Product((x, x))
        return p.Product((sq, sq))
    return p.Product((x,) * e)
