"""fparser2 expressions -> typed IR expressions (pymbolic), following Fortran's type rules.

Every conversion returns a `Typed` (expression + Fortran type).  Arithmetic between an integer
and a real converts the integer explicitly (`TypeCast`), because numpy-style promotion (int32 *
float32 -> float64) differs from Fortran's (real(4)).  Constants are typed numpy scalars and
are folded where both operands are constants.  Integer ``/`` is `Quotient` (truncation, the IR
contract).  Array sections are element references over the inames of the enclosing array
statement (`ExprBuilder.sections`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

import numpy as np
import pymbolic.primitives as p

from frontends.fortran.bit_intrinsics import ALL_INTRINSICS as INTRINSICS
from frontends.fortran.host_values import is_character
from frontends.fortran.intrinsics import REWRITES
from frontends.fortran.modules import missing_module_error
from frontends.fortran.source import children, class_name
from frontends.fortran.types import (INTEGER, LOGICAL, REAL, VALID_KINDS, FType, Scope, Symbol,
                                     promote)
# Typed values and the operations on them are values' (below this module and intrinsics);
# re-exported here, where the rest of the frontend has always found them.
from frontends.fortran.values import (Typed, add_expr, arith, as_float, as_truth, cast, compare,
                                      fold, from_linear, ftype_of, is_constant, linear_terms,
                                      logical_op, negate, operand, section_index, sub_expr)
from translator.diagnostics import (FrontendError, SourceSpan, TranslatorError,
                                    UnsupportedConstructError, too_deep)
from translator.ir.expr import Expression, TypeCast, dependencies
from translator.records import dataclass


@dataclass(frozen=True, slots=True)
class Layout:
    """How a Fortran array maps to its 0-based IR argument: per axis lower bound and extent
    (expressions in value arguments; an extent is None for the last axis of `a(*)`)."""

    lowers: tuple[Expression, ...]
    extents: tuple[Expression | None, ...]


@dataclass(frozen=True, slots=True)
class Implied:
    """An implied DO of an array constructor with constant bounds: ``(values, var = first,
    ..., step)``, `length` elements in all."""

    var: str
    first: int
    step: int
    values: tuple[Any, ...]
    length: int


class ExprContext(Protocol):
    """What the expression builder needs from its surroundings (a region or a declaration)."""

    scope: Scope

    def loop_value(self, name: str) -> Expression | None: ...

    def check_name(self, name: str) -> None: ...

    def layout(self, sym: Symbol) -> Layout: ...

    def touch(self, sym: Symbol) -> None: ...

    def span(self, word: str | None = None) -> SourceSpan | None: ...

    def reduction_inames(self, bounds: list[tuple[Expression, Expression, int]],
                         span: SourceSpan | None) -> tuple[str, ...]: ...


BINARY_CLASSES = ("Level_2_Expr", "Add_Operand", "Mult_Operand", "Level_4_Expr", "Or_Operand",
                  "Equiv_Operand", "Level_5_Expr", "Level_3_Expr", "Defined_Binary_Op")
_COMPARE = {"<": "<", ".LT.": "<", "<=": "<=", ".LE.": "<=", ">": ">", ".GT.": ">",
            ">=": ">=", ".GE.": ">=", "==": "==", ".EQ.": "==", "/=": "!=", ".NE.": "!="}


def _left_spine(node: Any) -> list[Any]:
    """`node` and the nodes of its class down its left operands (``a + b - c``: the ``-``
    then the ``+``), walked without recursion: a sum of thousands of terms is that deep."""
    spine = [node]
    while type(spine[-1].items[0]) is type(node):
        spine.append(spine[-1].items[0])
    return spine


class ExprBuilder:
    """Converts fparser2 expression nodes; dispatch on the node class (``visit_<Class>``)."""

    def __init__(self, ctx: ExprContext) -> None:
        self.ctx = ctx
        #: Inames of the enclosing array statement, one per section axis (None: scalar context).
        self.sections: tuple[str, ...] | None = None
        #: The value of each implied DO's variable while one of its values is built.
        self.implied_values: dict[str, Expression] = {}
        #: The constructor a reduction ranges over by its implied DO (`implied_bounds`).
        self.direct_implied: Any = None

    # -- dispatch -------------------------------------------------------------------------

    def __call__(self, node: Any) -> Typed:
        return self.visit(node)

    def visit(self, node: Any) -> Typed:
        name = class_name(node)
        method = getattr(self, f"visit_{name}", None)
        if method is None and name in BINARY_CLASSES:
            method = self.visit_binary
        if method is None:
            raise UnsupportedConstructError(
                f"unsupported construct {name} ({node}) in an expression", self.ctx.span())
        try:
            return method(node)
        except TranslatorError as e:
            raise e.with_span(self.ctx.span())
        except RecursionError:
            raise too_deep(self.ctx.span()) from None
        # anything else is a bug in the translator: an internal error (exit 2), not hidden

    def error(self, message: str, word: str | None = None) -> TranslatorError:
        return UnsupportedConstructError(message, self.ctx.span(word))

    # -- leaves ---------------------------------------------------------------------------

    def visit_Int_Literal_Constant(self, node: Any) -> Typed:
        text, kind = node.items[0], node.items[1]
        ftype = FType("integer", self.kind_value(kind, "integer") if kind else 4)
        value, info = int(text), np.iinfo(ftype.dtype)
        if not info.min <= value <= info.max:
            raise FrontendError(f"integer literal {text} is too large for its kind "
                                f"(integer({ftype.kind}) holds at most {info.max})",
                                self.ctx.span(str(node)))
        return Typed(ftype.dtype.type(value), ftype)

    visit_Signed_Int_Literal_Constant = visit_Int_Literal_Constant

    def visit_Real_Literal_Constant(self, node: Any) -> Typed:
        text, kind = str(node.items[0]).lower(), node.items[1]
        kind_value = 8 if "d" in text else 4
        if kind:
            kind_value = self.kind_value(kind, "real")
        ftype = FType("real", kind_value)
        return Typed(ftype.dtype.type(text.replace("d", "e")), ftype)

    visit_Signed_Real_Literal_Constant = visit_Real_Literal_Constant

    def visit_Logical_Literal_Constant(self, node: Any) -> Typed:
        value = str(node.items[0]).upper() == ".TRUE."
        return Typed(np.int32(1 if value else 0), LOGICAL)

    def visit_Char_Literal_Constant(self, node: Any) -> Typed:
        raise self.error("character data is not supported in a kernel region")

    def visit_Complex_Literal_Constant(self, node: Any) -> Typed:
        """``(re, im)``: the kind of the more precise real part (default complex for two
        integers); each part is converted to that real kind first, as Fortran does."""
        parts = [self.visit(item) for item in node.items]
        for part, item in zip(parts, node.items):
            if part.ftype.base not in ("integer", "real") or not is_constant(part.expr):
                raise FrontendError(f"part {item} of a complex constant is not an integer or "
                                    "real constant", self.ctx.span())
        kind = max((t.ftype.kind for t in parts if t.ftype.base == "real"), default=4)
        real = FType("real", kind)
        re, im = (float(cast(t, real)) for t in parts)
        ftype = FType("complex", kind)
        return Typed(ftype.dtype.type(complex(re, im)), ftype)

    def kind_value(self, kind: Any, base: str) -> int:
        """The integer value of a kind parameter (a literal or a named constant)."""
        text = str(kind).lower()
        if text.isdigit():
            value = int(text)
        else:
            sym = self.ctx.scope.lookup(text)
            if sym is None or not sym.is_parameter or sym.parameter is None:
                raise FrontendError(f"unknown kind parameter {text!r}", self.ctx.span(text))
            value = int(sym.parameter)
        if value not in VALID_KINDS[base]:
            raise UnsupportedConstructError(f"{base} kind {value} is not supported",
                                            self.ctx.span(text))
        return value

    def visit_Parenthesis(self, node: Any) -> Typed:
        return self.visit(node.items[1])

    def visit_Name(self, node: Any) -> Typed:
        name = str(node).lower()
        if name in self.implied_values:     # the DO variable of an implied DO
            return Typed(self.implied_values[name], INTEGER)
        value = self.ctx.loop_value(name)
        if value is not None:
            return self.loop_variable(name, value)
        index = getattr(self.ctx, "index_value", None)
        value = index(name) if index is not None else None
        if value is not None:   # an integer local the block set from its loops' variables
            return Typed(value, self.type_of(self.lookup(name)))
        bound = getattr(self.ctx, "bound_value", None)
        found = bound(name) if bound is not None else None
        if found is not None:   # a dummy or local of an inlined callee
            return found
        self.ctx.check_name(name)
        sym = self.lookup(name)
        if sym.is_parameter and not (sym.is_array and self.sections is not None):
            return self.parameter(sym)
        if sym.is_array:
            if self.sections is None:
                raise self.error(f"whole array {name!r} used where a scalar is expected "
                                 "(array expressions are supported in array assignments)", name)
            return self.array_ref(sym, None)
        self.ctx.touch(sym)
        return Typed(p.Variable(name), self.type_of(sym))

    def loop_variable(self, name: str, value: Expression) -> Typed:
        """The value of DO variable `name` in its declared kind: an iname is a C ``int``, so
        an ``integer(int64)`` DO variable is converted (``i * 1000000007`` is a 64-bit product
        in Fortran; subscripts and bounds drop the conversion again)."""
        sym = self.ctx.scope.lookup_declared(name)
        ftype = sym.ftype if sym is not None else None
        if ftype is None or ftype.base != "integer" or ftype.dtype.itemsize <= 4:
            return Typed(value, INTEGER)
        return Typed(TypeCast(ftype.dtype, value), ftype)

    def lookup(self, name: str) -> Symbol:
        sym = self.ctx.scope.lookup(name)
        if sym is None:
            self._check_missing_module(name)
            raise FrontendError(f"undeclared name {name!r} (implicit none is in effect)",
                                self.ctx.span(name))
        return sym

    def _check_missing_module(self, name: str) -> None:
        """An undeclared name that a module whose source was not found may declare."""
        err = missing_module_error(self.ctx.scope, name, self.ctx.span(name),
                                   getattr(self.ctx, "lines", None))
        if err is not None:
            raise err

    def type_of(self, sym: Symbol) -> FType:
        if sym.ftype is None:
            raise FrontendError(f"{sym.name!r} has no type", self.ctx.span(sym.name))
        if not sym.ftype.is_numeric and sym.ftype.base != "logical":
            raise UnsupportedConstructError(
                f"{sym.name!r}: {sym.ftype.base} data is not supported"
                + (" yet" if sym.ftype.base == "complex" else " in a kernel region"),
                self.ctx.span(sym.name))
        return sym.ftype

    def parameter(self, sym: Symbol) -> Typed:
        if sym.is_array and sym.parameter_values is not None:
            raise self.error(f"whole named constant array {sym.name!r} used where a scalar is "
                             "expected", sym.name)
        if sym.is_array or sym.parameter is None:
            raise self.error(f"named constant {sym.name!r}: only scalar constants with a "
                             "constant value are supported", sym.name)
        return Typed(sym.parameter, self.type_of(sym))

    # -- operators ------------------------------------------------------------------------

    def visit_binary(self, node: Any) -> Typed:
        host = getattr(self.ctx, "host_comparison", None)
        if host is not None and class_name(node) == "Level_4_Expr" and any(
                is_character(side, self.ctx.scope) for side in (node.items[0], node.items[2])):
            return host(node)   # character data: the caller compares
        spine = _left_spine(node)
        value = self.visit(spine[-1].items[0])
        for link in reversed(spine):
            value = self.binary(value, str(link.items[1]).upper(), self.visit(link.items[2]),
                                link.items[0])
        return value

    def binary(self, a: Typed, op: str, b: Typed, lhs: Any) -> Typed:
        """``a op b`` for the operands' values; `lhs` is the left operand's node (it places
        an error in a constant expression at the operator)."""
        if op in _COMPARE:
            return compare(a, _COMPARE[op], b)
        if op in (".AND.", ".OR.", ".EQV.", ".NEQV.", ".XOR."):
            return logical_op(a, op, b, self)
        if op in ("+", "-", "*", "/", "**"):
            # only a constant operation can fail at its operator: the search is not made for
            # the operands of a long chain
            constant = is_constant(a.expr) and is_constant(b.expr)
            return arith(a, op, b, self, span=self.operator_span(lhs, op) if constant else None)
        raise self.error(f"operator {op} is not supported in a kernel region")

    def operator_span(self, lhs: Any, op: str) -> SourceSpan | None:
        """Where operator `op` after the operand `lhs` stands on the statement's line (the
        statement's span when the operand's text cannot be found there)."""
        span = self.ctx.span()
        if span is None or not span.source_line:
            return span
        words = [re.escape(w) for w in str(lhs).split()]
        m = re.search(r"\s*".join(words) + r"\s*" + re.escape(op), span.source_line, re.I)
        if m is None:
            return span
        return replace(span, col=m.end() - len(op) + 1)

    def visit_Level_2_Unary_Expr(self, node: Any) -> Typed:
        op, operand = node.items
        t = self.visit(operand)
        if not t.ftype.is_numeric:
            raise self.error(f"unary {op} applied to {t.ftype.base} data")
        if str(op) == "+":
            return t
        if is_constant(t.expr):
            return Typed(t.ftype.dtype.type(-t.expr), t.ftype)
        return Typed(negate(t.expr), t.ftype)

    def visit_And_Operand(self, node: Any) -> Typed:
        op, operand = node.items
        t = self.visit(operand)
        return Typed(p.LogicalNot(t.expr), LOGICAL)

    # -- references -----------------------------------------------------------------------

    def visit_Part_Ref(self, node: Any) -> Typed:
        name = str(node.items[0]).lower()
        subs = children(node.items[1])
        if self.ctx.loop_value(name) is not None:
            raise self.error(f"loop variable {name!r} used as an array or function", name)
        self.ctx.check_name(name)
        sym = self.ctx.scope.lookup_declared(name)
        if sym is not None and sym.failure is not None:
            raise sym.failure
        if sym is not None and sym.is_parameter and sym.parameter_values is None:
            raise self.error(f"named constant array {name!r}: only arrays of constants with "
                             "constant bounds are supported", name)
        if sym is None or not sym.is_array:
            if name in self.user_functions:
                return self.user_call(name, list(subs))
            if name in INTRINSICS and (sym is None or not sym.external):
                return INTRINSICS[name](self, name, list(subs))
            if sym is None:
                self._check_missing_module(name)
            if hasattr(self.ctx, "inline_function"):
                return self.ctx.inline_function(name, list(subs))
            raise self.error(f"call to function {name!r} is not supported in a kernel region "
                             "(only intrinsic functions, and functions a register_function "
                             "pragma of the region declares, can be offloaded)", name)
        return self.array_ref(sym, subs)

    def visit_Intrinsic_Function_Reference(self, node: Any) -> Typed:
        name = str(node.items[0]).lower()
        sym = self.ctx.scope.lookup_declared(name)
        if sym is not None and (sym.is_array or sym.external):
            # fparser2 knows only names of type declarations: ``DIMENSION DIM(N, N)`` makes
            # ``DIM(I, J)`` an element, an EXTERNAL name the procedure's own function
            return self.visit_Part_Ref(node)
        args = list(children(node.items[1])) if node.items[1] is not None else []
        handler = INTRINSICS.get(name)
        if handler is None:
            hint = REWRITES.get(name)
            raise self.error(f"intrinsic function {name!r} is not supported in a kernel region"
                             + (f"; {hint}" if hint else ""), name)
        return handler(self, name, args)

    def visit_Function_Reference(self, node: Any) -> Typed:
        name = str(node.items[0]).lower()
        if name in self.user_functions:
            args = list(children(node.items[1])) if node.items[1] is not None else []
            return self.user_call(name, args)
        if hasattr(self.ctx, "inline_function"):
            args = list(children(node.items[1])) if node.items[1] is not None else []
            return self.ctx.inline_function(name, args)
        raise self.error(f"call to function {name!r} is not supported in a kernel region",
                         name)

    def visit_Structure_Constructor(self, node: Any) -> Typed:
        """fparser's reading of ``f(x, -1.0)`` where ``f`` is no declared name: a call of a
        function (a derived-type value is not supported in a region)."""
        name = str(node.items[0]).lower()
        args = list(children(node.items[1])) if node.items[1] is not None else []
        if self.ctx.scope.lookup_type(name) is not None:
            raise self.error(f"structure constructor ({node}) is not supported in a kernel "
                             "region", name)
        if name in self.user_functions:
            return self.user_call(name, args)
        if hasattr(self.ctx, "inline_function"):
            return self.ctx.inline_function(name, args)
        raise self.error(f"call to function {name!r} is not supported in a kernel region",
                         name)

    @property
    def user_functions(self) -> dict:
        """Functions the region declares with register_function pragmas."""
        return getattr(self.ctx, "user_functions", {})

    def user_call(self, name: str, args: list[Any]) -> Typed:
        arg_types, result = self.user_functions[name]
        if len(args) != len(arg_types):
            raise FrontendError(f"{name} takes {len(arg_types)} argument(s) (as its "
                                f"register_function pragma declares), not {len(args)}",
                                self.ctx.span(name))
        params = tuple(cast(self.visit(a), ftype_of(t)) for a, t in zip(args, arg_types))
        return Typed(p.Call(p.Variable(name), params), ftype_of(result))

    def visit_Data_Ref(self, node: Any) -> Typed:
        """A derived-type component (`RegionBuilder.component`): an array element, a whole
        array in an array expression, or a scalar."""
        component = getattr(self.ctx, "component", None)
        if component is None:
            raise self.error(f"derived-type component access ({node}) is not supported here")
        sym, subs = component(node)
        if subs is not None:
            if not sym.is_array:
                raise self.error(f"component {sym.designator} is not an array")
            return self.array_ref(sym, subs)
        if sym.is_array:
            if self.sections is None:
                raise self.error(f"whole array {sym.designator!r} used where a scalar is "
                                 "expected (array expressions are supported in array "
                                 "assignments)")
            return self.array_ref(sym, None)
        self.ctx.touch(sym)
        return Typed(p.Variable(sym.name), self.type_of(sym))

    def visit_Array_Constructor(self, node: Any) -> Typed:
        """``[a, b, c]`` (or ``(/ ... /)``, ``[real(8) :: ...]``, implied DOs ``[(2*j, j = 1,
        3)]`` with constant bounds) of scalars, in a rank-1 array expression or a reduction
        of it: the element at the section's position (``if(t == 0, a, if(t == 1, b, c))``; the
        section's count must be the constructor's length).  A reduction over one implied DO
        of one value (``sum([(w(j) * x(i + j), j = -m, m)])``) ranges over its DO variable,
        whatever its bounds (`implied_bounds`)."""
        counts = getattr(self.ctx, "section_counts", {})
        if self.sections is None or len(self.sections) != 1 or (
                self.sections[0] not in counts and node is not self.direct_implied):
            raise self.error(f"array constructor ({node}) in a kernel region: only in a "
                             "one-dimensional array assignment (c = [a, b], c(1:2) = [a, b]) "
                             "or as the argument of sum, product, maxval, minval, count, any "
                             "or all; assign its elements one by one otherwise")
        position = p.Variable(self.sections[0])
        if node is self.direct_implied:
            return self._direct_implied(node, position)
        spec, items = self.constructor_values(node)
        length = sum(v.length if isinstance(v, Implied) else 1 for v in items)
        count = counts[self.sections[0]]
        if not isinstance(count, (int, np.integer)) or int(count) != length:
            raise self.error(f"array constructor ({node}) of {length} elements assigned "
                             f"to {count} elements: the counts must be equal constants")
        pieces: list[tuple[int, Typed]] = []   # (first position, value there)
        at = 0
        for v in items:
            if isinstance(v, Implied):
                for trip in range(v.length // len(v.values)):
                    for value in v.values:
                        pieces.append((at, self._implied_value(v, trip, value)))
                        at += 1
            else:
                pieces.append((at, self.visit(v)))
                at += 1
        typed = [t for _, t in pieces]
        ftype = spec or typed[0].ftype
        for t in typed[1:] if spec is None else ():
            ftype = promote(ftype, t.ftype) if ftype.is_numeric and t.ftype.is_numeric \
                else ftype
        out = cast(typed[-1], ftype)
        for k in range(len(typed) - 2, -1, -1):
            out = p.If(p.Comparison(position, "==", np.int32(k)), cast(typed[k], ftype), out)
        return Typed(out, ftype)

    def _implied_value(self, v: Implied, trip: Expression | int, value: Any = None) -> Typed:
        """A value of implied DO `v` at its 0-based `trip`: its DO variable bound to
        ``first + step*trip`` while the value is built."""
        at = add_expr(v.first, trip if v.step == 1 else p.Product((v.step, trip)))
        saved, sections = dict(self.implied_values), self.sections
        self.implied_values[v.var] = at
        self.sections = None    # a scalar value, at the position the DO variable says
        try:
            return self.visit(v.values[0] if value is None else value)
        finally:
            self.implied_values, self.sections = saved, sections

    def _direct_implied(self, node: Any, position: p.Variable) -> Typed:
        """The value of the one implied DO of `node` at the reduction's `position`."""
        spec, body = self._constructor_spec(node)
        implied = children(body)[0] if class_name(body) == "Ac_Value_List" else body
        inner, control = implied.items
        value = children(inner)[0] if class_name(inner) == "Ac_Value_List" else inner
        first, _, step = self.implied_bounds(node)
        v = Implied(var=str(control.items[0]).lower(), first=first, step=step, values=(value,),
                    length=0)
        saved = dict(self.implied_values)
        self.implied_values[v.var] = first
        try:
            self._check_scalar(node, value)
        finally:
            self.implied_values = saved
        typed = self._implied_value(v, position)
        ftype = spec or typed.ftype
        return Typed(cast(typed, ftype), ftype)

    def implied_bounds(self, node: Any) -> tuple[Expression, Expression, int] | None:
        """(first, last, step) of the constructor `node` where it is one implied DO of one
        value (a reduction ranges over it), else None."""
        body = node.items[1]
        if class_name(body) == "Ac_Spec":
            body = body.items[1]
        values = children(body) if class_name(body) == "Ac_Value_List" else [body]
        if len(values) != 1 or class_name(values[0]) != "Ac_Implied_Do":
            return None
        inner, control = values[0].items
        if len(children(inner) if class_name(inner) == "Ac_Value_List" else [inner]) != 1:
            return None
        _, limits = control.items
        step = 1 if len(limits) < 3 else self.constant_int(
            limits[2], "the step of an implied DO in a kernel region")
        return self.index_value(limits[0]), self.index_value(limits[1]), step

    def constructor_values(self, node: Any) -> tuple[FType | None, list[Any]]:
        """The type spec (None: none) and the values of an array constructor: scalar
        nodes, and `Implied` DOs of scalars."""
        spec, body = self._constructor_spec(node)
        values = children(body) if class_name(body) == "Ac_Value_List" else [body]
        out: list[Any] = []
        for v in values:
            if class_name(v) == "Ac_Implied_Do":
                out.append(self._implied(node, v))
                continue
            self._check_scalar(node, v)
            out.append(v)
        return spec, out

    def _constructor_spec(self, node: Any) -> tuple[FType | None, Any]:
        """The type spec of an array constructor (None: none) and its body."""
        body = node.items[1]
        spec = None
        if class_name(body) == "Ac_Spec":
            spec_node, body = body.items
            if spec_node is not None:
                read = getattr(self.ctx, "type_spec", None)
                if read is None:
                    raise self.error(f"array constructor ({node}) with a type is not "
                                     "supported here")
                spec = read(spec_node)
        return spec, body

    def constructor_length(self, node: Any) -> int:
        """How many elements the array constructor `node` has (implied DOs: constant
        bounds)."""
        return sum(v.length if isinstance(v, Implied) else 1
                   for v in self.constructor_values(node)[1])

    def _implied(self, node: Any, v: Any) -> Implied:
        inner, control = v.items
        values = children(inner) if class_name(inner) == "Ac_Value_List" else [inner]
        var, limits = control.items
        advice = ("write its values out, or assign the elements in a DO loop (a reduction "
                  "over one implied DO of one value takes any bounds)")
        what = f"the bounds of the implied DO in the array constructor ({node})"
        first = self.constant_int(limits[0], what, advice)
        last = self.constant_int(limits[1], what, advice)
        step = 1 if len(limits) < 3 else self.constant_int(limits[2], what, advice)
        if step == 0:
            raise self.error(f"the implied DO in the array constructor ({node}) has step 0")
        for value in values:
            if class_name(value) == "Ac_Implied_Do":
                raise self.error(f"nested implied DO in the array constructor ({node}) in a "
                                 "kernel region: write its values out, or assign the elements "
                                 "in DO loops")
        trips = max(0, (last - first + step) // step)
        implied = Implied(var=str(var).lower(), first=first, step=step, values=tuple(values),
                          length=trips * len(values))
        saved = dict(self.implied_values)
        self.implied_values[implied.var] = first
        try:
            for value in values:
                self._check_scalar(node, value)
        finally:
            self.implied_values = saved
        return implied

    def _check_scalar(self, node: Any, v: Any) -> None:
        saved, self.sections = self.sections, None
        try:
            rank = self.section_rank(v)
        finally:
            self.sections = saved
        if rank:
            raise self.error(f"array constructor ({node}) with the array {v} among its "
                             "values in a kernel region: list scalar values only")

    def array_ref(self, sym: Symbol, subs: Sequence[Any] | None) -> Typed:
        """An element reference; section axes take the inames of `self.sections`."""
        ftype = self.type_of(sym)
        layout = self.ctx.layout(sym)
        ndim = len(layout.lowers)
        if subs is not None and len(subs) != ndim:
            raise FrontendError(f"array {sym.name!r} has {ndim} dimension(s) but is subscripted "
                                f"with {len(subs)}", self.ctx.span(sym.name))
        self.ctx.touch(sym)
        index: list[Expression] = []
        section = 0
        for k in range(ndim):
            sub = None if subs is None else subs[k]
            if sub is not None and class_name(sub) != "Subscript_Triplet":
                t = self.visit(sub)
                if t.ftype.base != "integer":
                    raise FrontendError(f"subscript {sub} of {sym.name!r} is not an integer",
                                        self.ctx.span(sym.name))
                if self.sections is not None and _uses_sections(t.expr, self.sections):
                    raise self.error(f"vector subscript in {sym.name}({sub}) is not supported",
                                     sym.name)
                index.append(sub_expr(t.expr, layout.lowers[k]))
                continue
            lo, _, stride = self.triplet(sym, k, sub)
            index.append(section_index(lo, stride, self.section_iname(sym, section),
                                       layout.lowers[k]))
            section += 1
        if self.sections is not None and section and section != len(self.sections):
            raise FrontendError(
                f"array section of {sym.name!r} has rank {section}, but the array expression "
                f"has rank {len(self.sections)}", self.ctx.span(sym.name))
        element = getattr(self.ctx, "element", None)   # a view of an inlined callee's dummy
        if element is not None:
            return Typed(element(sym, tuple(index)), ftype)
        return Typed(p.Subscript(p.Variable(sym.name), tuple(index)), ftype)

    def section_iname(self, sym: Symbol, k: int) -> p.Variable:
        if self.sections is None:
            raise self.error(f"array section of {sym.name!r} used where a scalar is expected "
                             "(array expressions are supported in array assignments)", sym.name)
        if k >= len(self.sections):
            raise FrontendError(f"array section of {sym.name!r} has a higher rank than the "
                                "array expression", self.ctx.span(sym.name))
        return p.Variable(self.sections[k])

    def triplet(self, sym: Symbol, k: int, sub: Any | None,
                ) -> tuple[Expression, Expression | None, int]:
        """(first, last, stride) of a section axis in source (1-based) subscripts."""
        layout = self.ctx.layout(sym)
        lower, extent = layout.lowers[k], layout.extents[k]
        upper = None if extent is None else add_expr(lower, extent, -1)
        first, last, stride = lower, upper, 1
        if sub is not None:
            lo_node, hi_node, st_node = sub.items
            if lo_node is not None:
                first = self.index_value(lo_node)
            if hi_node is not None:
                last = self.index_value(hi_node)
            if st_node is not None:
                stride = self.constant_int(st_node, "a section stride")
        if last is None:
            raise self.error(f"the extent of the last dimension of assumed-size array "
                             f"{sym.name!r} is unknown; give the section's upper bound", sym.name)
        if stride == 0:
            raise FrontendError("array section with a zero stride", self.ctx.span(sym.name))
        return first, last, stride

    def index_value(self, node: Any) -> Expression:
        saved, self.sections = self.sections, None
        try:
            t = self.visit(node)
        finally:
            self.sections = saved
        if t.ftype.base != "integer":
            raise FrontendError(f"section bound {node} is not an integer", self.ctx.span())
        return t.expr

    def constant_int(self, node: Any, what: str, advice: str = "") -> int:
        """The value of `node`, an integer constant expression; else an error (`advice`: what
        to write instead, appended after a semicolon)."""
        t = self.visit(node)
        if not is_constant(t.expr) or t.ftype.base != "integer":
            raise self.error(f"{what} must be an integer constant (got {node})"
                             + (f"; {advice}" if advice else ""))
        return int(t.expr)

    def section_rank(self, node: Any) -> int:
        """The rank of a reference node (number of section axes; whole arrays: all axes)."""
        name = class_name(node)
        if name == "Name":
            sym = self.ctx.scope.lookup_declared(str(node).lower())
            ok = sym is not None and sym.is_array and not sym.is_parameter
            return len(self.ctx.layout(sym).lowers) if ok else 0
        if name == "Part_Ref":
            sym = self.ctx.scope.lookup_declared(str(node.items[0]).lower())
            if sym is None or not sym.is_array:
                return 0
            return sum(1 for s in children(node.items[1])
                       if class_name(s) == "Subscript_Triplet")
        if name == "Data_Ref" and hasattr(self.ctx, "component"):
            sym, subs = self.ctx.component(node)
            if not sym.is_array:
                return 0
            if subs is None:
                return len(self.ctx.layout(sym).lowers)
            return sum(1 for s in subs if class_name(s) == "Subscript_Triplet")
        return 0

    def section_bounds(self, node: Any) -> list[tuple[Expression, Expression, int]]:
        """Per section axis of a reference node: (first, last, stride) in source subscripts."""
        name = class_name(node)
        if name == "Data_Ref":
            sym, subs = self.ctx.component(node)
            if subs is not None:
                return [self.triplet(sym, k, s) for k, s in enumerate(subs)
                        if class_name(s) == "Subscript_Triplet"]
        elif name == "Name":
            sym = self.lookup(str(node).lower())
        if name in ("Data_Ref", "Name"):
            return [self.triplet(sym, k, None) for k in range(len(self.ctx.layout(sym).lowers))]
        sym = self.lookup(str(node.items[0]).lower())
        return [self.triplet(sym, k, s) for k, s in enumerate(children(node.items[1]))
                if class_name(s) == "Subscript_Triplet"]


def _uses_sections(e: Expression, inames: Sequence[str]) -> bool:
    return bool(dependencies(e) & set(inames))


__all__ = ["ExprBuilder", "Layout", "Typed", "add_expr", "arith", "as_float", "as_truth", "cast",
           "compare", "fold", "from_linear", "ftype_of", "is_constant", "linear_terms",
           "logical_op", "negate", "operand", "section_index", "sub_expr"]
