"""Canonical C for loops: recognise the head, normalise the iteration, bound expressions.

Accepted heads (C99 6.8.5.3 restricted to counted loops)::

    for (int i = a; i < b; i++)        i <= b, i > b, i >= b, b > i, ... ; && of several
    for (i = a; ...; ++i | i-- | --i | i += c | i -= c | i = i + c | i = c + i | i = i - c)
    for (int i = a; i != b; i++)       step 1 or -1 only: i < b, i > b

`c` is an integer constant expression.  With a unit step, ``i != b`` runs exactly the
iterations of ``i < b`` (``i > b`` decreasing) where the loop ends at all, that is where ``a``
is on the right side of ``b`` (elsewhere it never ends: undefined); OpenMP 5 reads it the same
way.  A loop with step 1 keeps its variable as the iname
(``a <= i``, condition); any other step becomes a 0-based trip counter named after the
variable, the variable standing for ``a + step*counter`` in the body, so the iteration order of
the original is preserved.
"""

from __future__ import annotations

from collections.abc import Callable

import pymbolic.primitives as p
from pycparser import c_ast
from pycparser.c_generator import CGenerator

from frontends.c.typemodel import FileScope
from translator.diagnostics import SourceSpan, UnsupportedConstructError
from translator.ir.expr import Expression, IRIdentityMapper, TypeCast, integer_casts_dropped
from translator.records import dataclass

CANONICAL = ("expected 'for (int i = a; i < b; i++)' with <, <=, >, >= and a constant "
             "step: i++, i--, i += c, i -= c, i = i + c")

_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
_COMPARISONS = {**_FLIP, "!=": "!="}


@dataclass(frozen=True)
class LoopHead:
    """The parts of a canonical for loop."""

    var: str
    decl: c_ast.Decl | None          # the variable's declaration in the for, if any
    init: c_ast.Node                 # the initial value
    step: int
    conditions: tuple[tuple[str, c_ast.Node], ...]   # ``var OP bound``


def non_canonical(reason: str, span: SourceSpan | None) -> UnsupportedConstructError:
    return UnsupportedConstructError(f"non-canonical for loop: {reason}; {CANONICAL}", span)


def analyse_for(node: c_ast.For, fscope: FileScope, span: SourceSpan | None) -> LoopHead:
    """Split a for statement into a `LoopHead`; raise for anything non-canonical."""
    var, decl, init = _init(node.init, span)
    step = _step(node.next, var, fscope, span)
    if node.cond is None:
        raise non_canonical("the loop has no condition", span)
    conditions = tuple(_unequal_as_order(op, bound, var, step, span)
                       for op, bound in _conditions(node.cond, var, span))
    for op, _ in conditions:
        if (op in ("<", "<=")) != (step > 0):
            direction = "increasing" if step > 0 else "decreasing"
            raise non_canonical(f"the condition 'i {op} ...' does not end the {direction} "
                                f"loop over {var!r}", span)
    return LoopHead(var, decl, init, step, conditions)


def _unequal_as_order(op: str, bound: c_ast.Node, var: str, step: int, span
                      ) -> tuple[str, c_ast.Node]:
    """``i != b`` as ``i < b`` (step 1) or ``i > b`` (step -1); other steps may jump over
    ``b``."""
    if op != "!=":
        return op, bound
    if abs(step) != 1:
        raise non_canonical(f"the condition '{var} != ...' needs a step of 1 or -1 (the loop "
                            f"over {var!r} has step {step}, which may pass the bound)", span)
    return ("<" if step == 1 else ">"), bound


def _init(init: c_ast.Node | None, span) -> tuple[str, c_ast.Decl | None, c_ast.Node]:
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1:
        decl = init.decls[0]
        if decl.init is None or isinstance(decl.init, c_ast.InitList):
            raise non_canonical(f"the loop variable {decl.name!r} is not initialised", span)
        return decl.name, decl, decl.init
    if (isinstance(init, c_ast.Assignment) and init.op == "="
            and isinstance(init.lvalue, c_ast.ID)):
        return init.lvalue.name, None, init.rvalue
    raise non_canonical("the initialisation must set one loop variable", span)


def _step(nxt: c_ast.Node | None, var: str, fscope: FileScope, span) -> int:
    step = None
    if isinstance(nxt, c_ast.UnaryOp) and _is_var(nxt.expr, var):
        step = {"++": 1, "p++": 1, "--": -1, "p--": -1}.get(nxt.op)
    elif isinstance(nxt, c_ast.Assignment) and _is_var(nxt.lvalue, var):
        if nxt.op in ("+=", "-="):
            c = fscope.constant_value(nxt.rvalue)
            step = None if c is None else (c if nxt.op == "+=" else -c)
        elif nxt.op == "=" and isinstance(nxt.rvalue, c_ast.BinaryOp):
            step = _step_of_sum(nxt.rvalue, var, fscope)
    if step is None:
        raise non_canonical(f"the increment of {var!r} is not a constant step", span)
    if step == 0:
        raise non_canonical(f"the loop over {var!r} has step 0", span)
    return step


def _step_of_sum(expr: c_ast.BinaryOp, var: str, fscope: FileScope) -> int | None:
    if expr.op == "+" and _is_var(expr.left, var):
        return fscope.constant_value(expr.right)
    if expr.op == "+" and _is_var(expr.right, var):
        return fscope.constant_value(expr.left)
    if expr.op == "-" and _is_var(expr.left, var):
        c = fscope.constant_value(expr.right)
        return None if c is None else -c
    return None


def _conditions(cond: c_ast.Node, var: str, span) -> list[tuple[str, c_ast.Node]]:
    if isinstance(cond, c_ast.BinaryOp) and cond.op == "&&":
        return _conditions(cond.left, var, span) + _conditions(cond.right, var, span)
    if isinstance(cond, c_ast.BinaryOp) and cond.op in _COMPARISONS:
        left, right = _is_var(cond.left, var), _is_var(cond.right, var)
        if left and not _mentions(cond.right, var):
            return [(cond.op, cond.right)]
        if right and not _mentions(cond.left, var):
            return [(_COMPARISONS[cond.op], cond.left)]
    raise non_canonical(f"the condition must compare {var!r} with a bound (<, <=, >, >=, or "
                        "!= with a step of 1 or -1)", span)


def _is_var(node: c_ast.Node, var: str) -> bool:
    return isinstance(node, c_ast.ID) and node.name == var


def _mentions(node: c_ast.Node, var: str) -> bool:
    if isinstance(node, c_ast.ID):
        return node.name == var
    return any(_mentions(child, var) for _, child in node.children())


# ---------------------------------------------------------------------------------------------
# bound expressions

class BoundNormaliser(IRIdentityMapper):
    """Make a loop bound isl-friendly: ``a < b ? a : b`` -> min, the mirror -> max, integer
    casts of integer values dropped (bounds are exact integers; `integer_casts_dropped`, with
    `is_integer` saying which names have integer types), trunc division of a non-negative
    numerator by a positive constant -> floor division (`is_nonnegative` decides)."""

    def __init__(self, is_nonnegative, is_integer: Callable[[str], bool]) -> None:
        self.is_nonnegative = is_nonnegative
        self.is_integer = is_integer

    def map_if(self, expr: p.If, *args, **kwargs):
        c = expr.condition
        then, else_ = self.rec(expr.then), self.rec(expr.else_)
        if isinstance(c, p.Comparison) and c.operator in _FLIP:
            left, right = self.rec(c.left), self.rec(c.right)
            smaller_first = c.operator in ("<", "<=")
            if (then, else_) == (left, right):
                return p.Call(p.Variable("min" if smaller_first else "max"), (left, right))
            if (then, else_) == (right, left):
                return p.Call(p.Variable("max" if smaller_first else "min"), (left, right))
        return p.If(self.rec(c), then, else_)

    def map_type_cast(self, expr: TypeCast, *args, **kwargs):
        cast = TypeCast(expr.dtype, self.rec(expr.child))
        return integer_casts_dropped(cast, self.is_integer)

    def map_quotient(self, expr: p.Quotient, *args, **kwargs):
        num, den = self.rec(expr.numerator), self.rec(expr.denominator)
        if isinstance(den, int) and den > 0 and self.is_nonnegative(num):
            return p.FloorDiv(num, den)
        return p.Quotient(num, den)


def bound_constraints(value: Expression, lower: Expression, step: int,
                      conditions: list[tuple[str, Expression]],
                      iname: str) -> list[tuple[Expression, str, Expression]]:
    """Constraints of a normalised loop: ``lower <= iname`` (step 1) or ``0 <= iname``, and
    each condition on the variable's value."""
    head: tuple[Expression, str, Expression]
    head = (lower, "<=", p.Variable(iname)) if step == 1 else (0, "<=", p.Variable(iname))
    return [head] + [(value, op, bound) for op, bound in conditions]


def final_value_text(head: LoopHead) -> str:
    """C expression of the variable's value after ``for (v = a; v OP b; v += s)`` (one
    condition): ``a`` when the loop does not run, else the first value past the bound."""
    op, bound = head.conditions[0]
    a, b = f"({CGenerator().visit(head.init)})", f"({CGenerator().visit(bound)})"
    s = abs(head.step)
    sign, gap = ("+", f"{b} - {a}") if head.step > 0 else ("-", f"{a} - {b}")
    if op in ("<", ">"):
        past = b if s == 1 else f"{a} {sign} ({gap} + {s - 1}) / {s} * {s}"
    else:
        past = f"{b} {sign} 1" if s == 1 else f"{a} {sign} ({gap}) / {s} * {s} {sign} {s}"
    return f"{a} {op} {b} ? {past} : {a}"


def loop_value(iname: str, lower: Expression, step: int) -> Expression:
    """The C variable's value in terms of the iname."""
    if step == 1:
        return p.Variable(iname)
    counter = p.Product((step, p.Variable(iname)))
    if lower == 0:
        return counter
    return p.Sum((lower, counter))
