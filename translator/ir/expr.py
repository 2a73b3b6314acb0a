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
min, max (any arity), copysign, rem.  Frontends map their intrinsics onto these.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pymbolic.primitives as p
from pymbolic.mapper import CombineMapper, IdentityMapper, WalkMapper
from pymbolic.mapper.dependency import DependencyMapper
from pymbolic.mapper.stringifier import PREC_NONE, StringifyMapper
from pymbolic.mapper.substitutor import SubstitutionMapper

Expression = object  # pymbolic expressions, numbers and numpy scalars

#: IR functions a frontend may emit; codegen lowers each of them (see module docstring).
IR_FUNCTIONS = frozenset({
    "abs", "sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
    "sinh", "cosh", "tanh", "pow", "floor", "ceil", "trunc", "round", "fmod", "min", "max",
    "copysign", "rem",
})

#: Reduction operations known to the engine (registered user operations extend this).
REDUCTION_OPS: dict[str, dict] = {
    "sum": {"neutral": 0, "combine": "+"},
    "product": {"neutral": 1, "combine": "*"},
    "max": {"neutral": "-inf", "combine": "max"},
    "min": {"neutral": "+inf", "combine": "min"},
}


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
    """Writes expressions in the kernel language (the IR printer builds on this)."""

    def map_reduction(self, expr: Reduction, prec: int, *args, **kwargs) -> str:
        inames = ", ".join(expr.inames)
        body = self.rec(expr.expr, PREC_NONE)
        if expr.allow_simultaneous:
            return f"simul_reduce({expr.operation}, [{inames}], {body})"
        return f"{expr.operation}([{inames}], {body})"

    def map_linear_subscript(self, expr: LinearSubscript, prec: int, *args, **kwargs) -> str:
        return f"{self.rec(expr.aggregate, PREC_NONE)}[[{self.rec(expr.index, PREC_NONE)}]]"

    def map_tagged_variable(self, expr: TaggedVariable, prec: int, *args, **kwargs) -> str:
        return f"{expr.name}${expr.tag}"

    def map_type_cast(self, expr: TypeCast, prec: int, *args, **kwargs) -> str:
        return f"cast({np.dtype(expr.dtype).name}, {self.rec(expr.child, PREC_NONE)})"

    def map_if(self, expr: p.If, prec: int, *args, **kwargs) -> str:
        return (f"if({self.rec(expr.condition, PREC_NONE)}, {self.rec(expr.then, PREC_NONE)}, "
                f"{self.rec(expr.else_, PREC_NONE)})")


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


def dependencies(expr: Expression) -> frozenset[str]:
    """Names of free variables read by `expr` (function names excluded)."""
    return frozenset(v.name for v in _Dependencies()(expr))


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


def var(name: str) -> p.Variable:
    return p.Variable(name)


def flatten_and(conds: Iterable[Expression]) -> Expression:
    conds = tuple(conds)
    if not conds:
        return True
    return conds[0] if len(conds) == 1 else p.LogicalAnd(conds)
