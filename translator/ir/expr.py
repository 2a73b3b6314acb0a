"""Expression nodes beyond pymbolic's, and mappers that know them.

Expressions are pymbolic.  The kernel language adds:

- `Reduction` (``sum(k, e)``, ``max([i, j], e)``, ``reduce(sum, [k], e)``, ``simul_reduce(...)``),
- `LinearSubscript` (``a[[8*i + j]]``),
- `TaggedVariable` (``a$tag``),
- `TypeCast` (``cast(float64, e)``; built by frontends and transforms).

Conditionals are pymbolic's ``If``; math functions are ``Call(Variable("sqrt"), ...)`` (IR functions
lowered by the target).  Typed constants are numpy scalars in the tree; Python numbers adapt.

Integer arithmetic semantics (the contract between frontends and codegen):

- ``FloorDiv`` (``a // b``) rounds toward minus infinity; ``Remainder`` (``a % b``) has the sign
  of the divisor.  These are the kernel language's ``//`` and ``%``.
- ``Quotient`` (``a / b``) on two integers truncates toward zero (C, OpenCL and Fortran ``/``);
  on floats it is ordinary division.
- IR function ``rem(a, b)``: the truncating remainder (C ``%``, Fortran ``mod``).

IR functions (``Call(Variable(name), args)``), lowered per target: abs, sqrt, exp, log, log10,
sin, cos, tan, asin, acos, atan, atan2, sinh, cosh, tanh, pow, floor, ceil, trunc, round, fmod,
min, max (any arity), copysign, rem; for complex values also real, imag, conj and
complex(x, y); the further math functions C99 and OpenCL C share (`MATH_ARITY`: cbrt, erf,
tgamma, hypot, fma, ...), ``ldexp(x, n)`` (n an int) and the int-valued ``ilogb``, ``isnan``,
``isinf``, ``isfinite``, ``isnormal`` (`INT_RESULT_FUNCTIONS`) and ``popcount`` of an integer
(`INTEGER_FUNCTIONS`).  Frontends map their intrinsics onto these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

import numpy as np
import pymbolic.primitives as p
from pymbolic.mapper import CombineMapper, IdentityMapper, WalkMapper
from pymbolic.mapper.dependency import DependencyMapper
from pymbolic.mapper.stringifier import PREC_NONE, StringifyMapper
from pymbolic.mapper.substitutor import SubstitutionMapper

Expression = object  # pymbolic expressions, numbers and numpy scalars

#: A guard that never holds: the rest of a loop body after an unconditional CYCLE / continue.
NEVER = p.Comparison(0, "!=", 0)

#: IR functions a frontend may emit; codegen lowers each of them (see module docstring).
IR_FUNCTIONS_BASIC = frozenset({
    "abs", "sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
    "sinh", "cosh", "tanh", "pow", "floor", "ceil", "trunc", "round", "fmod", "min", "max",
    "copysign", "rem", "real", "imag", "conj", "complex",
})
#: Further float functions that C99 math.h and OpenCL C both have (same name, same meaning),
#: by arity: float arguments, a float result.
MATH_ARITY: dict[str, int] = {
    **dict.fromkeys(("cbrt", "exp2", "expm1", "log2", "log1p", "logb", "asinh", "acosh",
                     "atanh", "erf", "erfc", "tgamma", "lgamma", "rint"), 1),
    **dict.fromkeys(("hypot", "remainder", "nextafter", "fdim"), 2),
    "fma": 3,
}
#: Functions of a float argument with an int result (OpenCL: ``int`` for a scalar).
INT_RESULT_FUNCTIONS = frozenset({"ilogb", "isnan", "isinf", "isfinite", "isnormal"})
#: Functions of an integer with a result of its type: ``popcount`` (the bits set, OpenCL's).
INTEGER_FUNCTIONS = frozenset({"popcount"})
IR_FUNCTIONS = (IR_FUNCTIONS_BASIC | frozenset(MATH_ARITY) | {"ldexp"} | INT_RESULT_FUNCTIONS
                | INTEGER_FUNCTIONS)

#: The reductions the kernel language defines itself (``sum(k, e)``, ``reduce(max, [i], e)``);
#: what they compute is `translator.ir.reduction_ops`'.
BUILTIN_REDUCTIONS = ("sum", "product", "max", "min")
#: The operation names ``reduce(op, ...)`` accepts: the built-ins and the user reductions this
#: process registered (`translator.ir.reduction_ops.announce_reduction` adds them).
REDUCTION_NAMES: set[str] = set(BUILTIN_REDUCTIONS)


@p.expr_dataclass()
class Reduction(p.ExpressionNode):
    """``operation(inames, expr)``: reduce `expr` over every point of `inames`.

    `allow_simultaneous` is True for ``simul_reduce``: the inames may also be used outside.
    """

    operation: str
    inames: tuple[str, ...]
    expr: Expression
    allow_simultaneous: bool = False


@p.expr_dataclass()
class LinearSubscript(p.ExpressionNode):
    """``aggregate[[index]]``: subscript by a linear (flat, element) offset."""

    aggregate: Expression
    index: Expression


@p.expr_dataclass()
class TaggedVariable(p.Variable):
    """``name$tag``: a variable reference carrying a tag (for matching in transforms)."""

    tag: str = ""


@p.expr_dataclass()
class TypeCast(p.ExpressionNode):
    """``cast(dtype, child)``: an explicit conversion to a numpy dtype."""

    dtype: np.dtype
    child: Expression


class IRStringifier(StringifyMapper):
    """Writes expressions in the kernel language (the IR printer builds on this).

    The output parses back (``translator.ir.parse_expr``) to the identical tree: n-ary nodes
    nested in a node of the same kind are parenthesised, ``(-1)*x`` prints as ``-1*x`` (or
    ``a - x`` inside a sum), typed numpy constants print as ``float32(0.5)`` and Python floats
    with `repr`.  Precedences use pymbolic's scale for arithmetic; comparisons bind tighter
    than bitwise operators, as in pymbolic's parser (and C).
    """

    P_OR, P_AND, P_BIT_OR, P_BIT_AND, P_COMPARISON, P_SHIFT = 4, 5, 6, 7, 8, 10
    P_SUM, P_PRODUCT, P_UNARY, P_POWER, P_ATOM = 11, 12, 13, 14, 15

    _CHAIN_OPS = {p.LogicalOr: (" or ", P_OR), p.LogicalAnd: (" and ", P_AND),
                  p.BitwiseOr: (" | ", P_BIT_OR), p.BitwiseXor: (" ^ ", P_BIT_OR),
                  p.BitwiseAnd: (" & ", P_BIT_AND)}
    _DIV_OPS = {p.FloorDiv: " // ", p.Remainder: " % ", p.Quotient: " / "}
    _REDUCTION_SYNTAX = frozenset({"sum", "product", "max", "min"})

    @staticmethod
    def _wrap(text: str, own: int, enclosing: int) -> str:
        return f"({text})" if own < enclosing else text

    def _sub(self, expr, enclosing: int) -> str:
        return self.rec(expr, enclosing)

    # -- leaves ---------------------------------------------------------------------------

    def map_constant(self, expr, prec: int = PREC_NONE, *args, **kwargs) -> str:
        if isinstance(expr, np.generic):
            return self._numpy_literal(expr)
        if isinstance(expr, bool):
            return repr(expr)
        if isinstance(expr, int):
            return self._wrap(str(expr), self.P_UNARY if expr < 0 else self.P_ATOM, prec)
        if isinstance(expr, float):
            if not np.isfinite(expr):
                return f"float({self._float_text(expr)})"
            own = self.P_UNARY if np.signbit(expr) else self.P_ATOM
            return self._wrap(repr(expr), own, prec)
        if isinstance(expr, complex):
            return f"complex({self._float_text(expr.real)}, {self._float_text(expr.imag)})"
        return super().map_constant(expr, prec, *args, **kwargs)

    def map_variable(self, expr: p.Variable, prec: int = PREC_NONE, *args, **kwargs) -> str:
        return expr.name

    def map_tagged_variable(self, expr: TaggedVariable, prec: int = PREC_NONE,
                            *args, **kwargs) -> str:
        return f"{expr.name}${expr.tag}"

    def map_tuple(self, expr: tuple, prec: int = PREC_NONE, *args, **kwargs) -> str:
        items = [self._sub(c, PREC_NONE) for c in expr]
        return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"

    # -- arithmetic -----------------------------------------------------------------------

    def map_sum(self, expr: p.Sum, prec: int = PREC_NONE, *args, **kwargs) -> str:
        if not expr.children:
            return "0" if prec <= self.P_SUM else "(0)"
        parts = [self._sub(expr.children[0], self.P_SUM + 1)]
        for child in expr.children[1:]:
            parts.append(self._sum_term(child))
        return self._wrap("".join(parts), self.P_SUM, prec)

    def _sum_term(self, child) -> str:
        # 'a - x' parses to a + (-1)*x (folded for number literals): print those that way.
        if type(child) in (int, float) and np.signbit(child):
            return f" - {self.map_constant(-child, self.P_SUM + 1)}"
        if (type(child) is p.Product and len(child.children) == 2
                and type(child.children[0]) is int and child.children[0] == -1
                and type(child.children[1]) not in (int, float, complex)):
            return f" - {self._sub(child.children[1], self.P_SUM + 1)}"
        return f" + {self._sub(child, self.P_SUM + 1)}"

    def map_product(self, expr: p.Product, prec: int = PREC_NONE, *args, **kwargs) -> str:
        if not expr.children:
            return "1"
        text = "*".join(self._sub(c, self.P_PRODUCT + 1) for c in expr.children)
        return self._wrap(text, self.P_PRODUCT, prec)

    def _map_division(self, expr, prec: int, *args, **kwargs) -> str:
        text = (self._sub(expr.numerator, self.P_PRODUCT) + self._DIV_OPS[type(expr)]
                + self._sub(expr.denominator, self.P_PRODUCT + 1))
        return self._wrap(text, self.P_PRODUCT, prec)

    map_quotient = map_floor_div = map_remainder = _map_division

    def map_power(self, expr: p.Power, prec: int = PREC_NONE, *args, **kwargs) -> str:
        text = (f"{self._sub(expr.base, self.P_POWER + 1)}**"
                f"{self._sub(expr.exponent, self.P_POWER)}")
        return self._wrap(text, self.P_POWER, prec)

    # -- logic, comparison, bits ----------------------------------------------------------

    def _map_chain(self, expr, prec: int, *args, **kwargs) -> str:
        joiner, own = self._CHAIN_OPS[type(expr)]
        text = joiner.join(self._sub(c, own + 1) for c in expr.children)
        return self._wrap(text, own, prec)

    map_logical_or = map_logical_and = _map_chain
    map_bitwise_or = map_bitwise_xor = map_bitwise_and = _map_chain

    def map_logical_not(self, expr: p.LogicalNot, prec: int = PREC_NONE, *args, **kwargs):
        return self._wrap(f"not {self._sub(expr.child, self.P_UNARY + 1)}", self.P_UNARY, prec)

    def map_bitwise_not(self, expr: p.BitwiseNot, prec: int = PREC_NONE, *args, **kwargs):
        return self._wrap(f"~{self._sub(expr.child, self.P_UNARY + 1)}", self.P_UNARY, prec)

    def map_comparison(self, expr: p.Comparison, prec: int = PREC_NONE, *args, **kwargs):
        text = (f"{self._sub(expr.left, self.P_COMPARISON + 1)} {expr.operator} "
                f"{self._sub(expr.right, self.P_COMPARISON + 1)}")
        return self._wrap(text, self.P_COMPARISON, prec)

    def _map_shift(self, expr, prec: int, *args, **kwargs) -> str:
        op = " << " if isinstance(expr, p.LeftShift) else " >> "
        text = (self._sub(expr.shiftee, self.P_SHIFT) + op
                + self._sub(expr.shift, self.P_SHIFT + 1))
        return self._wrap(text, self.P_SHIFT, prec)

    map_left_shift = map_right_shift = _map_shift

    # -- calls, subscripts and the kernel language's own nodes ----------------------------

    def map_call(self, expr: p.Call, prec: int = PREC_NONE, *args, **kwargs) -> str:
        params = ", ".join(self._sub(c, PREC_NONE) for c in expr.parameters)
        return f"{self._sub(expr.function, self.P_ATOM)}({params})"

    def map_subscript(self, expr: p.Subscript, prec: int = PREC_NONE, *args, **kwargs) -> str:
        index = expr.index
        if isinstance(index, tuple):
            text = ", ".join(self._sub(c, PREC_NONE) for c in index) if index else "()"
            text += "," if len(index) == 1 else ""    # a[i,]: a 1-tuple, unlike a[i]
        else:
            text = self._sub(index, PREC_NONE)
        return f"{self._sub(expr.aggregate, self.P_ATOM)}[{text}]"

    def map_lookup(self, expr: p.Lookup, prec: int = PREC_NONE, *args, **kwargs) -> str:
        return f"{self._sub(expr.aggregate, self.P_ATOM)}.{expr.name}"

    def map_if(self, expr: p.If, prec: int = PREC_NONE, *args, **kwargs) -> str:
        return (f"if({self._sub(expr.condition, PREC_NONE)}, {self._sub(expr.then, PREC_NONE)}"
                f", {self._sub(expr.else_, PREC_NONE)})")

    def map_reduction(self, expr: Reduction, prec: int = PREC_NONE, *args, **kwargs) -> str:
        inames = f"[{', '.join(expr.inames)}]"
        body = self._sub(expr.expr, PREC_NONE)
        if expr.allow_simultaneous:
            return f"simul_reduce({expr.operation}, {inames}, {body})"
        if expr.operation not in self._REDUCTION_SYNTAX:
            return f"reduce({expr.operation}, {inames}, {body})"
        return f"{expr.operation}({inames}, {body})"

    def map_linear_subscript(self, expr: LinearSubscript, prec: int = PREC_NONE,
                             *args, **kwargs) -> str:
        return f"{self._sub(expr.aggregate, self.P_ATOM)}[[{self._sub(expr.index, PREC_NONE)}]]"

    def map_type_cast(self, expr: TypeCast, prec: int = PREC_NONE, *args, **kwargs) -> str:
        return f"cast({np.dtype(expr.dtype).name}, {self._sub(expr.child, PREC_NONE)})"

    # -- constants ------------------------------------------------------------------------

    @staticmethod
    def _float_text(value: float) -> str:
        """A Python float as the kernel language writes it inside a constant: inf, -inf, nan."""
        if np.isnan(value):
            return "nan"
        if np.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(float(value))

    @staticmethod
    def _numpy_float_text(value: np.floating) -> str:
        """Shortest text that reads back (via a Python float) to exactly `value`."""
        if not np.isfinite(value):
            return IRStringifier._float_text(float(value))
        text = str(value)
        try:
            back = type(value)(float(text))
            if back == value and np.signbit(back) == np.signbit(value):
                return text
        except ValueError:
            pass
        return repr(float(value))

    @staticmethod
    def _numpy_literal(value: np.generic) -> str:
        """A typed constant: ``float32(0.5)``, ``int64(-3)``, ``complex64(1.0, 2.0)``."""
        name = value.dtype.name
        if value.dtype.kind == "b":
            return f"bool({bool(value)})"
        if value.dtype.kind in "iu":
            return f"{name}({int(value)})"
        if value.dtype.kind == "c":
            real = IRStringifier._numpy_float_text(value.real)
            return f"{name}({real}, {IRStringifier._numpy_float_text(value.imag)})"
        return f"{name}({IRStringifier._numpy_float_text(value)})"


def _make_stringifier(self, originating_stringifier=None):
    return IRStringifier()


for _cls in (Reduction, LinearSubscript, TaggedVariable, TypeCast):
    _cls.make_stringifier = _make_stringifier


class IRIdentityMapper(IdentityMapper):
    """Rebuilds expressions; returns the same object where nothing changed."""

    def map_reduction(self, expr: Reduction, *args, **kwargs):
        new = self.rec(expr.expr, *args, **kwargs)
        return expr if new is expr.expr else Reduction(
            expr.operation, expr.inames, new, expr.allow_simultaneous)

    def map_linear_subscript(self, expr: LinearSubscript, *args, **kwargs):
        agg = self.rec(expr.aggregate, *args, **kwargs)
        idx = self.rec(expr.index, *args, **kwargs)
        if agg is expr.aggregate and idx is expr.index:
            return expr
        return LinearSubscript(agg, idx)

    def map_tagged_variable(self, expr: TaggedVariable, *args, **kwargs):
        return expr

    def map_type_cast(self, expr: TypeCast, *args, **kwargs):
        child = self.rec(expr.child, *args, **kwargs)
        return expr if child is expr.child else TypeCast(expr.dtype, child)

    def map_numpy_scalar(self, expr, *args, **kwargs):
        return expr


class IRWalkMapper(WalkMapper):
    """Visits every node; override `visit` / `post_visit`."""

    def map_reduction(self, expr: Reduction, *args, **kwargs):
        if not self.visit(expr, *args, **kwargs):
            return
        self.rec(expr.expr, *args, **kwargs)
        self.post_visit(expr, *args, **kwargs)

    def map_linear_subscript(self, expr: LinearSubscript, *args, **kwargs):
        if not self.visit(expr, *args, **kwargs):
            return
        self.rec(expr.aggregate, *args, **kwargs)
        self.rec(expr.index, *args, **kwargs)
        self.post_visit(expr, *args, **kwargs)

    def map_tagged_variable(self, expr: TaggedVariable, *args, **kwargs):
        self.visit(expr, *args, **kwargs)
        self.post_visit(expr, *args, **kwargs)

    def map_type_cast(self, expr: TypeCast, *args, **kwargs):
        if not self.visit(expr, *args, **kwargs):
            return
        self.rec(expr.child, *args, **kwargs)
        self.post_visit(expr, *args, **kwargs)

    def map_numpy_scalar(self, expr, *args, **kwargs):
        self.visit(expr, *args, **kwargs)


class IRCombineMapper(CombineMapper):
    def map_reduction(self, expr: Reduction, *args, **kwargs):
        return self.rec(expr.expr, *args, **kwargs)

    def map_linear_subscript(self, expr: LinearSubscript, *args, **kwargs):
        return self.combine([self.rec(expr.aggregate, *args, **kwargs),
                             self.rec(expr.index, *args, **kwargs)])

    def map_type_cast(self, expr: TypeCast, *args, **kwargs):
        return self.rec(expr.child, *args, **kwargs)


class _Dependencies(DependencyMapper):
    """Variable names an expression reads; reduction inames are bound, not free."""

    def __init__(self) -> None:
        super().__init__(include_subscripts=False, include_lookups=False,
                         include_calls=False, composite_leaves=False)

    def map_reduction(self, expr: Reduction, *args, **kwargs):
        inner = self.rec(expr.expr, *args, **kwargs)
        return frozenset(v for v in inner if v.name not in expr.inames)

    def map_linear_subscript(self, expr: LinearSubscript, *args, **kwargs):
        return self.combine([self.rec(expr.aggregate), self.rec(expr.index)])

    def map_tagged_variable(self, expr: TaggedVariable, *args, **kwargs):
        return frozenset([p.Variable(expr.name)])

    def map_type_cast(self, expr: TypeCast, *args, **kwargs):
        return self.rec(expr.child)

    def map_numpy_scalar(self, expr, *args, **kwargs):
        return frozenset()

    def map_call(self, expr: p.Call, *args, **kwargs):
        return self.combine([self.rec(c) for c in expr.parameters])

    def map_constant(self, expr, *args, **kwargs):
        return frozenset()


#: Answers of `dependencies` by expression (expressions are immutable and compare by
#: structure; analysis and codegen ask about the same subscripts and right-hand sides of a
#: region's statements many times).
_DEPENDENCIES: dict[Expression, frozenset[str]] = {}
_DEPENDENCIES_SIZE = 1 << 15


#: `dependencies` of expression nodes by identity, asked first: the structural table finds an
#: equal node built again only through pymbolic's `__eq__`, a Python walk of both trees
#: (code generation asks again about the very conditions and subscripts it holds).
_DEPENDENCIES_BY_ID: dict[int, tuple[Expression, frozenset[str]]] = {}


def dependencies(expr: Expression) -> frozenset[str]:
    """Names of free variables read by `expr` (function names excluded)."""
    held = _DEPENDENCIES_BY_ID.get(id(expr))
    if held is not None and held[0] is expr:
        return held[1]
    try:
        found = _DEPENDENCIES[expr]
    except (KeyError, TypeError):   # not asked yet, or unhashable
        names: set[str] = set()
        found = (frozenset(names) if _collect_names(expr, names)
                 else frozenset(v.name for v in _Dependencies()(expr)))
        try:
            if len(_DEPENDENCIES) >= _DEPENDENCIES_SIZE:
                _DEPENDENCIES.clear()
            _DEPENDENCIES[expr] = found
        except TypeError:
            pass
    if isinstance(expr, p.ExpressionNode):
        if len(_DEPENDENCIES_BY_ID) >= _DEPENDENCIES_SIZE:
            _DEPENDENCIES_BY_ID.clear()
        _DEPENDENCIES_BY_ID[id(expr)] = (expr, found)
    return found


#: Node classes `_collect_names` walks, by class: the attributes holding their operands
#: (each an expression or a tuple of them), as `_Dependencies` visits them.
_OPERANDS: dict[type, tuple[str, ...]] = {
    p.Sum: ("children",), p.Product: ("children",), p.Subscript: ("aggregate", "index"),
    p.Comparison: ("left", "right"), p.Quotient: ("numerator", "denominator"),
    p.FloorDiv: ("numerator", "denominator"), p.Remainder: ("numerator", "denominator"),
    p.Power: ("base", "exponent"), p.Call: ("parameters",), TypeCast: ("child",),
    LinearSubscript: ("aggregate", "index"), p.LogicalAnd: ("children",),
    p.LogicalOr: ("children",), p.LogicalNot: ("child",), p.Min: ("children",),
    p.Max: ("children",), p.If: ("condition", "then", "else_"),
}
#: Leaves without names (`_Dependencies.map_constant`, `map_numpy_scalar`).
_NAMELESS = (int, float, complex, bool, np.generic)


def _collect_names(expr: Expression, out: set[str]) -> bool:
    """Add the names `_Dependencies` finds in `expr` to `out`, walking the common nodes
    directly (a pymbolic mapper dispatches through several calls per node); False, with
    `out` partly filled, at a node it does not know (the mapper then answers, and raises
    what it raises).  Exactly the mapper's answer: variables by name, the operands of each
    node in `_OPERANDS` (a call's parameters, not its function), reduction inames bound."""
    cls = type(expr)
    if cls is p.Variable:
        out.add(expr.name)
        return True
    operands = _OPERANDS.get(cls)
    if operands is not None:
        for attr in operands:
            part = getattr(expr, attr)
            if type(part) is tuple:
                for item in part:
                    if not _collect_names(item, out):
                        return False
            elif not _collect_names(part, out):
                return False
        return True
    if cls is tuple:
        return all(_collect_names(item, out) for item in expr)
    if cls is Reduction:
        inner: set[str] = set()
        if not _collect_names(expr.expr, inner):
            return False
        out.update(inner.difference(expr.inames))
        return True
    return isinstance(expr, _NAMELESS)


#: The parts `IRWalkMapper` visits under each node class it walks directly, in its order:
#: ``(attribute, each)``, `each` where it recurses into the items of a tuple without
#: visiting the tuple (a sum's children, a call's parameters), else the part itself (a
#: subscript's index tuple is visited, then its items).
_WALKED: dict[type, tuple[tuple[str, bool], ...]] = {
    p.Sum: (("children", True),), p.Product: (("children", True),),
    p.LogicalAnd: (("children", True),), p.LogicalOr: (("children", True),),
    p.Subscript: (("aggregate", False), ("index", False)),
    p.Comparison: (("left", False), ("right", False)),
    p.Quotient: (("numerator", False), ("denominator", False)),
    p.FloorDiv: (("numerator", False), ("denominator", False)),
    p.Remainder: (("numerator", False), ("denominator", False)),
    p.Power: (("base", False), ("exponent", False)),
    p.Call: (("function", False), ("parameters", True)), p.LogicalNot: (("child", False),),
    p.If: (("condition", False), ("then", False), ("else_", False)),
    TypeCast: (("child", False),), LinearSubscript: (("aggregate", False), ("index", False)),
    Reduction: (("expr", False),),
}


def walk_nodes(expr: Expression) -> list | None:
    """Every node `IRWalkMapper` visits under `expr` (constants, variables and tuples it
    visits included), in its order (a node before its parts), for a visitor that descends
    everywhere; None where a node is not one this walk knows (the mapper then walks it,
    and raises what it raises).  A mapper dispatches through several calls per node."""
    out: list = []
    return out if _walk(expr, out) else None


def _walk(expr: Expression, out: list) -> bool:
    out.append(expr)
    cls = type(expr)
    if cls is p.Variable:
        return True
    walked = _WALKED.get(cls)
    if walked is not None:
        for attr, each in walked:
            part = getattr(expr, attr)
            if each:
                for item in part:
                    if not _walk(item, out):
                        return False
            elif not _walk(part, out):
                return False
        return True
    if cls is tuple:
        for item in expr:
            if not _walk(item, out):
                return False
        return True
    return isinstance(expr, _NAMELESS)


class _Substitutor(SubstitutionMapper, IRIdentityMapper):
    def map_reduction(self, expr: Reduction, *args, **kwargs):
        inner_subst = self.subst_func
        bound = set(expr.inames)

        def shadowed(var):
            return None if getattr(var, "name", None) in bound else inner_subst(var)

        sub = _Substitutor(shadowed)
        new = sub.rec(expr.expr)
        return expr if new is expr.expr else Reduction(
            expr.operation, expr.inames, new, expr.allow_simultaneous)


def substitute(expr: Expression, mapping: dict[str, Expression]) -> Expression:
    """Replace free variables by name (reduction-bound inames are respected)."""
    if not mapping:
        return expr

    def func(var):
        return mapping.get(var.name) if isinstance(var, p.Variable) else None

    return _Substitutor(func)(expr)


def expr_key(expr: Expression) -> str:
    """A deterministic sort key for expressions (their kernel-language text)."""
    return IRStringifier()(expr)


#: The field names of each expression class, in order (`typed_key`).
_FIELDS: dict[type, tuple[str, ...]] = {}


def typed_key(expr: object, rename: dict[str, str] | None = None) -> object:
    """A hashable key of `expr`'s structure for memo tables: equal keys mean the same
    expression node for node, with the type of every node and constant (pymbolic's own
    equality and hash take ``i + 1`` and ``i + 1.0``, or ``1`` and ``True``, for one
    expression).  Variables named in `rename` are keyed by their new name, apart from every
    name kept (``("v~", new)`` against ``("v", name)``), so keys up to renaming cannot meet
    a kept name spelled like a new one.  TypeError where a leaf is not hashable."""
    if rename:
        return _typed_key(expr, rename)
    held = _NODE_KEYS.get(id(expr))   # analysis keys the same subscripts again and again
    if held is not None and held[0] is expr:
        return held[1]
    key = _typed_key(expr, {})
    if isinstance(expr, p.ExpressionNode):
        if len(_NODE_KEYS) >= 100_000:
            _NODE_KEYS.clear()
        _NODE_KEYS[id(expr)] = (expr, key)
    return key


#: `typed_key` of expression nodes without renaming, by identity (the node is held, so
#: its id is not reused while remembered).
_NODE_KEYS: dict[int, tuple[p.ExpressionNode, object]] = {}


#: Constants keyed by their repr (`_typed_key`); a tuple, not a union built per call.
_INEXACT = (float, complex, np.generic)


def _typed_key(expr: object, rename: dict[str, str]) -> object:
    cls = type(expr)
    if cls is p.Variable:
        new = rename.get(expr.name)
        return ("v", expr.name) if new is None else ("v~", new)
    if cls in _EXACT_LEAVES:   # the commonest leaves first, as the general case keys them
        return (cls, expr)
    fast = _FAST_NODES.get(cls)
    if fast is not None:
        return fast(expr, rename)
    if isinstance(expr, _INEXACT):
        return (cls, repr(expr))   # repr: -0.0 and 0.0, and float32 digits, apart
    if isinstance(expr, tuple):
        return (tuple, *[_part_key(e, rename) for e in expr])
    if not isinstance(expr, p.ExpressionNode):
        hash(expr)
        return (cls, expr)
    return _node_key(expr, rename)


#: Leaf classes keyed as ``(class, value)`` at once (`_typed_key`'s last case gives them that).
_EXACT_LEAVES = frozenset((int, str, bool, type(None)))


def _part_key(expr: object, rename: dict[str, str]) -> object:
    """`typed_key(expr, rename)` of a part of a node: leaves keyed at once, nodes through
    `typed_key` (whose identity memo holds the subscripts shared between statements)."""
    cls = type(expr)
    if cls in _EXACT_LEAVES:
        return (cls, expr)
    if cls is p.Variable:
        new = rename.get(expr.name)
        return ("v", expr.name) if new is None else ("v~", new)
    if cls is tuple:   # (never held by identity: `typed_key` holds expression nodes only)
        return (tuple, *[_part_key(e, rename) for e in expr])
    fast = _FAST_NODES.get(cls)
    if fast is None:
        return typed_key(expr, rename)
    if rename:
        return fast(expr, rename)
    held = _NODE_KEYS.get(id(expr))   # `typed_key`'s identity memo, as it reads and fills it
    if held is not None and held[0] is expr:
        return held[1]
    key = fast(expr, rename)
    if len(_NODE_KEYS) >= 100_000:
        _NODE_KEYS.clear()
    _NODE_KEYS[id(expr)] = (expr, key)
    return key


def _children_key(expr: p.ExpressionNode, rename: dict[str, str]) -> object:
    return (type(expr), _part_key(expr.children, rename))


def _subscript_key(expr: p.Subscript, rename: dict[str, str]) -> object:
    return (p.Subscript, _part_key(expr.aggregate, rename), _part_key(expr.index, rename))


def _comparison_key(expr: p.Comparison, rename: dict[str, str]) -> object:
    return (p.Comparison, _part_key(expr.left, rename), _part_key(expr.operator, rename),
            _part_key(expr.right, rename))


def _division_key(expr: p.ExpressionNode, rename: dict[str, str]) -> object:
    return (type(expr), _part_key(expr.numerator, rename), _part_key(expr.denominator, rename))


def _power_key(expr: p.Power, rename: dict[str, str]) -> object:
    return (p.Power, _part_key(expr.base, rename), _part_key(expr.exponent, rename))


def _call_key(expr: p.Call, rename: dict[str, str]) -> object:
    return (p.Call, _part_key(expr.function, rename), _part_key(expr.parameters, rename))


#: `_node_key` written out for the commonest node classes (their dataclass fields in order,
#: no Variable among them): one call per node instead of four.  `tests/unit/
#: test_python_shortcuts.py` compares the keys with and without them.
_FAST_NODES: dict[type, Callable[[Any, dict[str, str]], object]] = {
    p.Sum: _children_key, p.Product: _children_key, p.LogicalAnd: _children_key,
    p.LogicalOr: _children_key, p.Subscript: _subscript_key, p.Comparison: _comparison_key,
    p.Quotient: _division_key, p.FloorDiv: _division_key, p.Remainder: _division_key,
    p.Min: _children_key, p.Max: _children_key, p.Power: _power_key, p.Call: _call_key,
}


def _node_key(expr: p.ExpressionNode, rename: dict[str, str]) -> object:
    cls = type(expr)
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(expr))
    if isinstance(expr, p.Variable) and expr.name in rename:
        return (cls, ("v~", rename[expr.name]),
                *[_part_key(getattr(expr, n), rename) for n in names if n != "name"])
    return (cls, *[_part_key(getattr(expr, n), rename) for n in names])


def var(name: str) -> p.Variable:
    return p.Variable(name)


def extend_chain(cls: type, left: Expression, right: Expression, chain: bool) -> Expression:
    """``cls((left, right))`` for `cls` Sum or Product; with `chain` (the caller's word that
    `left` has the result's type, so no conversion sits between the two), a `left` that is a
    `cls` itself gets `right` appended instead: ``a + b + c`` is one flat Sum, which prints as
    the same left-associative text and keeps every mapper's recursion shallow (a source sum
    of thousands of terms would otherwise be a tree of that depth).  A negation
    (``Product((-1, x))``) is not extended: ``-x * y`` stays as written."""
    if chain and isinstance(left, cls) and not (
            cls is p.Product and left.children and left.children[0] == -1):
        return cls((*left.children, right))
    return cls((left, right))


def flatten_and(conds: Iterable[Expression]) -> Expression:
    conds = tuple(conds)
    if not conds:
        return True
    return conds[0] if len(conds) == 1 else p.LogicalAnd(conds)


def readable_condition(cond: Expression) -> Expression:
    """``e >= 0`` (as isl gives constraints) -> ``neg < pos``-style comparisons with negative
    terms moved to the other side, so conditions read like loop bounds (``i < n``)."""
    if not (isinstance(cond, p.Comparison) and cond.right == 0):
        return cond
    terms = cond.left.children if isinstance(cond.left, p.Sum) else (cond.left,)
    pos: list[Expression] = []
    neg: list[Expression] = []
    const = 0
    for t in terms:
        if isinstance(t, int):
            const += t
        elif isinstance(t, p.Product) and isinstance(t.children[0], int) and t.children[0] < 0:
            c = -t.children[0]
            rest = t.children[1:]
            neg.append(rest[0] if c == 1 and len(rest) == 1 else p.Product((c, *rest)))
        else:
            pos.append(t)
    if cond.operator == ">=" and neg and const < 0:
        # pos - neg + c >= 0  <=>  neg < pos + c + 1
        return p.Comparison(_sum_terms(neg), "<", _sum_terms(pos, const + 1))
    if cond.operator == ">=" and neg:
        return p.Comparison(_sum_terms(neg), "<=", _sum_terms(pos, const))
    return p.Comparison(_sum_terms(pos), cond.operator, _sum_terms(neg, -const))


def _sum_terms(terms: list[Expression], const: int = 0) -> Expression:
    items = list(terms) + ([const] if const else [])
    if not items:
        return 0
    return items[0] if len(items) == 1 else p.Sum(tuple(items))




# ---------------------------------------------------------------------------------------------
# integer conversions of integer values (``(long)i * n``, ``int(i, 8)``)

def integer_casts_dropped(expr: Expression, is_integer: Callable[[str], bool]) -> Expression:
    """`expr` without its conversions of integer values to integer types of 32 bits or more
    (``(long)i * n + j`` -> ``i*n + j``): for subscripts and bounds, whose analysis takes
    integers as exact values (an index that overflows is out of bounds anyway).  A conversion
    of a float (``(int)x``), of an array element or to a narrower type (``(char)i`` wraps)
    stays, and keeps the expression non-affine.  `is_integer` says whether a name has an
    integer type.  Returns `expr` itself when there is nothing to drop."""
    return _IntegerCastsDropped(is_integer)(expr)


class _IntegerCastsDropped(IRIdentityMapper):
    def __init__(self, is_integer: Callable[[str], bool]) -> None:
        self.is_integer = is_integer

    def map_type_cast(self, expr: TypeCast, *args, **kwargs):
        child = self.rec(expr.child)
        dtype = np.dtype(expr.dtype)
        if dtype.kind in "iu" and dtype.itemsize >= 4 and self._integer_valued(child):
            return child
        return expr if child is expr.child else TypeCast(expr.dtype, child)

    def _integer_valued(self, expr: Expression) -> bool:
        if isinstance(expr, bool):
            return False
        if isinstance(expr, int | np.integer):
            return True
        if isinstance(expr, p.Variable) and not isinstance(expr, TaggedVariable):
            return self.is_integer(expr.name)
        if isinstance(expr, p.Sum | p.Product | p.Min | p.Max):
            return all(self._integer_valued(c) for c in expr.children)
        if isinstance(expr, p.FloorDiv | p.Remainder | p.Quotient):
            return all(self._integer_valued(c) for c in (expr.numerator, expr.denominator))
        return False
