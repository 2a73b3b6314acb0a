"""Expression printer: pymbolic (IR) expressions -> C / OpenCL C text.

One precedence table (`PRECEDENCE`) decides every parenthesisation.  The printer is usable
standalone for host-side size expressions (`to_c(expr)`: integers, parameters, + - *, ``//``
and ``%`` on non-negative integers printed as ``/`` and ``%``, min/max as conditionals), and, with
a `dtype_of` callback and the hooks of `CExpressionPrinter`, for device code: typed literals,
math IR functions lowered to OpenCL built-ins, floor division with the IR's floor semantics,
flattened array subscripts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pymbolic.primitives as p
from pymbolic.mapper import Mapper

from translator.codegen.math_functions import helper_definition, print_ir_function
# Names, types, literals and precedence are cnames' (below complex and math_functions);
# re-exported here, where the rest of codegen has always found them.
from translator.codegen.cnames import (C_RESERVED, PREC_NONE, PRECEDENCE, _is_complex,
                                       c_type_name, float_literal, int_literal, is_float,
                                       is_integer, negated_text, safe_name)
from translator.codegen.cnames import to_int_exponent as _to_int
from translator.codegen.complex import (COMPLEX_NODES, complex_helper_definitions,
                                       is_complex_helper, print_complex)
from translator.diagnostics import CodegenError
from translator.ir.expr import Expression, TypeCast

DtypeOf = Callable[[Expression], "np.dtype | None"]


# ---------------------------------------------------------------------------------------------
# the printer

class CExpressionPrinter(Mapper):
    """Prints IR expressions as C.  Hooks for device code:

    - `dtype_of(expr)`: the numpy dtype of a subexpression (None: unknown, treated as int).
    - `flat_index(name, indices)`: the flat element index of ``name[indices]`` (None: print
      ``name[i][j]``).
    - `is_nonnegative(expr)`: a proof that an integer expression is >= 0; None trusts that
      every floor division / modulo operand is non-negative (host-side sizes).
    - `target`: "c" (host: min/max as conditionals) or "opencl" (built-ins, typed casts).

    Helper functions the output needs (floor division of possibly negative integers, integer
    powers) are collected in `helpers`; `helper_definitions` prints them.
    """

    def __init__(self, dtype_of: DtypeOf | None = None, *,
                 flat_index: Callable[[str, tuple[Expression, ...]], Expression] | None = None,
                 is_nonnegative: Callable[[Expression], bool] | None = None,
                 target: str = "c") -> None:
        self.dtype_of = dtype_of or (lambda expr: None)
        self.flat_index = flat_index
        self.is_nonnegative = is_nonnegative
        self.target = target
        #: Whether an expression's type comes from Python literals only (adapts to context).
        self.weak_of: Callable[[Expression], bool] = lambda expr: False
        self.helpers: set[tuple[str, str]] = set()
        self._ctx: np.dtype | None = None   # dtype that Python float literals adopt here

    # -- entry ----------------------------------------------------------------------------

    def __call__(self, expr: Expression, prec: int = PREC_NONE,  # type: ignore[override]
                 ctx: np.dtype | None = None) -> str:
        """Print `expr`; `ctx` is the dtype Python float literals adopt at the top level
        (e.g. the assignee's type for ``y[i] = 2.0``)."""
        saved = self._ctx
        if ctx is not None:
            self._ctx = np.dtype(ctx)
        try:
            return self.rec(expr, prec)
        finally:
            self._ctx = saved

    def rec(self, expr: Expression, prec: int = PREC_NONE) -> str:  # type: ignore[override]
        # Complex values (float2/double2) follow their own rules: translator.codegen.complex.
        if isinstance(expr, p.ExpressionNode):
            text = print_complex(self, expr, prec) if type(expr) in COMPLEX_NODES else None
            if text is not None:
                return text
            method = getattr(self, expr.mapper_method, None)
            return Mapper.__call__(self, expr, prec) if method is None else method(expr, prec)
        if isinstance(expr, (complex, np.complexfloating)):
            return print_complex(self, expr, prec)
        # a number (`Mapper.__call__` sends what is not an expression node there)
        return self.map_foreign(expr, prec)

    def in_ctx(self, ctx: np.dtype | None, expr: Expression, prec: int) -> str:
        """Print `expr` with Python float literals adopting `ctx` (when it is a float type)."""
        saved = self._ctx
        if is_float(ctx):
            self._ctx = np.dtype(ctx)
        try:
            return self.rec(expr, prec)
        finally:
            self._ctx = saved

    def result_ctx(self, expr: Expression) -> np.dtype | None:
        """The dtype that literals among the operands of `expr` adopt: its own type, or the
        enclosing float type when `expr` is built from literals only (weak: ``x * (0.5 + 1)``
        with float32 ``x`` stays float32)."""
        dtype = self.dtype_of(expr)
        if is_float(dtype) and is_float(self._ctx) and self.weak_of(expr):
            return self._ctx
        if _is_complex(dtype) and _is_complex(self._ctx) and self.weak_of(expr):
            return self._ctx
        return dtype

    @staticmethod
    def parens(text: str, own: int, needed: int) -> str:
        return f"({text})" if own < needed else text

    def map_foreign(self, expr, prec: int = PREC_NONE, *args, **kwargs) -> str:
        if isinstance(expr, (bool, np.bool_)):
            return "1" if expr else "0"
        if isinstance(expr, (int, float, complex, np.number)):
            return self.map_constant(expr, prec)
        raise CodegenError(f"cannot print {expr!r} ({type(expr).__name__}) as C")

    def handle_unsupported_expression(self, expr, *args, **kwargs) -> str:
        raise CodegenError(f"expression node {type(expr).__name__} ({expr}) is not supported "
                           "by the OpenCL target")

    # -- leaves ---------------------------------------------------------------------------

    def map_constant(self, expr, prec: int = PREC_NONE) -> str:
        if isinstance(expr, (complex, np.complexfloating)):
            raise CodegenError(f"complex constant {expr} is not supported by the OpenCL target")
        if isinstance(expr, (bool, np.bool_)):
            return "1" if expr else "0"
        if isinstance(expr, np.generic):
            text = (float_literal(expr, expr.dtype) if expr.dtype.kind == "f"
                    else int_literal(int(expr), expr.dtype))
        elif isinstance(expr, float):
            text = float_literal(expr, self._ctx if is_float(self._ctx) else None)
        else:
            text = int_literal(expr)
        own = PRECEDENCE["unary"] if text.startswith("-") else PRECEDENCE["atom"]
        return self.parens(text, own, prec)

    def map_variable(self, expr: p.Variable, prec: int = PREC_NONE) -> str:
        return safe_name(expr.name)

    def map_tagged_variable(self, expr, prec: int = PREC_NONE) -> str:
        return safe_name(expr.name)

    # -- arithmetic -----------------------------------------------------------------------

    def map_sum(self, expr: p.Sum, prec: int = PREC_NONE) -> str:
        ctx = self.result_ctx(expr)
        own = PRECEDENCE["+"]
        parts = [self.in_ctx(ctx, expr.children[0], own)]
        for child in expr.children[1:]:
            neg = _negated(child)
            if neg is not None:
                parts.append("- " + self.in_ctx(ctx, neg, own + 1))
            else:
                parts.append("+ " + self.in_ctx(ctx, child, own + 1))
        return self.parens(" ".join(parts), own, prec)

    def map_product(self, expr: p.Product, prec: int = PREC_NONE) -> str:
        ctx = self.result_ctx(expr)
        children = expr.children
        if len(children) > 1 and _is_minus_one(children[0]):
            rest = children[1] if len(children) == 2 else p.Product(children[1:])
            text = negated_text(self.in_ctx(ctx, rest, PRECEDENCE["unary"]))
            return self.parens(text, PRECEDENCE["unary"], prec)
        own = PRECEDENCE["*"]
        parts = [self.in_ctx(ctx, children[0], own)]
        parts += [self.in_ctx(ctx, c, own + 1) for c in children[1:]]
        return self.parens(" * ".join(parts), own, prec)

    def binary(self, op: str, left: Expression, right: Expression, prec: int,
               ctx: np.dtype | None = None) -> str:
        """``left op right`` with C's left associativity."""
        own = PRECEDENCE[op]
        text = (f"{self.in_ctx(ctx, left, own)} {op} "
                f"{self.in_ctx(ctx, right, own + 1)}")
        return self.parens(text, own, prec)

    def call(self, name: str, args: Sequence[Expression], prec: int,
             ctx: np.dtype | None = None) -> str:
        inner = ", ".join(self.in_ctx(ctx, a, PREC_NONE) for a in args)
        return f"{name}({inner})"

    def cast(self, dtype: np.dtype, expr: Expression, prec: int) -> str:
        text = f"({c_type_name(dtype)}) " + self.in_ctx(dtype, expr, PRECEDENCE["unary"])
        return self.parens(text, PRECEDENCE["unary"], prec)

    def map_quotient(self, expr: p.Quotient, prec: int = PREC_NONE) -> str:
        # Integer / integer truncates, as C does; anything else is float division.
        return self.binary("/", expr.numerator, expr.denominator, prec, self.result_ctx(expr))

    def map_floor_div(self, expr: p.FloorDiv, prec: int = PREC_NONE) -> str:
        dtype = self.dtype_of(expr)
        num, den = expr.numerator, expr.denominator
        if is_float(dtype):
            return self.call("floor", [p.Quotient(num, den)], prec, dtype)
        if self._plain_division_ok(num, den, dtype):
            return self.binary("/", num, den, prec)
        return self.helper_call("floordiv", dtype, [num, den], prec)

    def map_remainder(self, expr: p.Remainder, prec: int = PREC_NONE) -> str:
        dtype = self.dtype_of(expr)
        num, den = expr.numerator, expr.denominator
        if is_float(dtype):
            return self.helper_call("floormod", dtype, [num, den], prec)
        if self._plain_division_ok(num, den, dtype):
            return self.binary("%", num, den, prec)
        return self.helper_call("floormod", dtype, [num, den], prec)

    def _plain_division_ok(self, num: Expression, den: Expression,
                           dtype: np.dtype | None) -> bool:
        """C's truncating / and % equal floor semantics when both operands are >= 0."""
        if dtype is not None and np.dtype(dtype).kind in "ub":
            return True
        if self.is_nonnegative is None:
            return True
        return self.is_nonnegative(num) and self.is_nonnegative(den)

    def helper_call(self, kind: str, dtype: np.dtype | None, args: Sequence[Expression],
                    prec: int) -> str:
        """Call a preamble helper ``_tr_<kind>_<dtype>``, recording that it is needed."""
        dt = np.dtype(dtype) if dtype is not None else np.dtype(np.int32)
        self.helpers.add((kind, dt.name))
        return self.call(f"_tr_{kind}_{dt.name}", [self._as(dt, a) for a in args], prec, dt)

    def _as(self, dtype: np.dtype, expr: Expression) -> Expression:
        """`expr` converted to `dtype` where its own type differs (overload resolution)."""
        if isinstance(expr, (int, np.integer)) and not isinstance(expr, (bool, np.bool_)):
            # sqrt(2) does not compile in OpenCL: integer literals become typed floats.
            return dtype.type(expr) if np.dtype(dtype).kind == "f" else expr
        own = self.dtype_of(expr)
        if own is None or np.dtype(own) == dtype or not isinstance(expr, p.ExpressionNode):
            return expr
        return TypeCast(dtype, expr)

    def map_power(self, expr: p.Power, prec: int = PREC_NONE) -> str:
        dtype = self.dtype_of(expr)
        base, exponent = expr.base, expr.exponent
        if is_float(dtype):
            return self._float_power(dtype, base, exponent, prec)
        if isinstance(exponent, (int, np.integer)) and 0 <= exponent <= 4:
            if exponent == 0:
                return "1"
            return self.rec(p.Product((base,) * int(exponent)), prec)
        return self.helper_call("ipow", dtype, [base, exponent], prec)

    def _float_power(self, dtype: np.dtype, base: Expression, exponent: Expression,
                     prec: int) -> str:
        if is_integer(self.dtype_of(exponent)) or isinstance(exponent, (int, np.integer)):
            if isinstance(exponent, (int, np.integer)) and exponent == 2:
                return self.rec(p.Product((base, base)), prec)
            return self._integer_exponent(dtype, base, exponent, prec)
        folded = _exact_power(self._as(dtype, base), _real_constant(exponent), dtype)
        if folded is not None:
            return self.rec(folded, prec)
        return self.call("pow", [self._as(dtype, base), self._as(dtype, exponent)], prec, dtype)

    def _integer_exponent(self, dtype: np.dtype, base: Expression, exponent: Expression,
                          prec: int) -> str:
        """``x ** n`` for an integer n by repeated squaring, as gfortran computes it (libgcc's
        powi for a 32-bit n, libgfortran's for a 64-bit n): exact-ish and the same bits,
        where OpenCL's pown may be 16 ulp away."""
        own = self.dtype_of(exponent)
        wide = own is not None and not isinstance(exponent, (int, np.integer)) \
            and np.dtype(own).itemsize > 4
        kind = "powil" if wide else "powi"
        self.helpers.add((kind, np.dtype(dtype).name))
        n = exponent if wide else _to_int(self, exponent)
        return self.call(f"_tr_{kind}_{np.dtype(dtype).name}", [self._as(dtype, base), n],
                         prec, dtype)

    # -- min/max and calls ----------------------------------------------------------------

    def map_min(self, expr: p.Min, prec: int = PREC_NONE) -> str:
        return self.min_max("min", expr.children, self.dtype_of(expr), prec)

    def map_max(self, expr: p.Max, prec: int = PREC_NONE) -> str:
        return self.min_max("max", expr.children, self.dtype_of(expr), prec)

    def min_max(self, which: str, args: Sequence[Expression], dtype: np.dtype | None,
                prec: int) -> str:
        """min/max of any arity: fmin/fmax for floats, min/max (OpenCL) or a conditional (C)."""
        if len(args) == 1:
            return self.in_ctx(dtype, args[0], prec)
        if is_float(dtype):
            name = "f" + which
        elif self.target == "opencl":
            name = which
        else:
            return self._min_max_conditional(which, args, prec)
        head = args[0]
        tail = args[1] if len(args) == 2 else p.Call(p.Variable(which), tuple(args[1:]))
        dt = np.dtype(dtype) if dtype is not None else None
        operands = [head, tail] if dt is None else [self._as(dt, head), self._as(dt, tail)]
        return self.call(name, operands, prec, dt)

    def _min_max_conditional(self, which: str, args: Sequence[Expression], prec: int) -> str:
        """Two atoms: ``(a > b ? a : b)``; anything else: the runtime's ``tr_max``/``tr_min``
        (translate_rt.h) in a balanced tree, so no operand is printed twice and the text
        stays linear in the number of operands (a conditional would double it per level)."""
        if len(args) == 2 and all(isinstance(a, (int, np.integer, p.Variable)) for a in args):
            a = self.rec(args[0], PRECEDENCE["<"] + 1)
            b = self.rec(args[1], PRECEDENCE["<"] + 1)
            op = "<" if which == "min" else ">"
            return self.parens(f"({a} {op} {b} ? {a} : {b})", PRECEDENCE["atom"], prec)
        return self._runtime_min_max(which, list(args))

    def _runtime_min_max(self, which: str, args: list[Expression]) -> str:
        if len(args) == 1:
            return self.rec(args[0], PREC_NONE)
        half = len(args) // 2
        return (f"tr_{which}({self._runtime_min_max(which, args[:half])}, "
                f"{self._runtime_min_max(which, args[half:])})")

    def map_call(self, expr: p.Call, prec: int = PREC_NONE) -> str:
        if not isinstance(expr.function, p.Variable):
            raise CodegenError(f"cannot call {expr.function}")
        return print_ir_function(self, expr.function.name, expr.parameters,
                                 self.result_ctx(expr), prec)

    # -- logic and comparison -------------------------------------------------------------

    def map_comparison(self, expr: p.Comparison, prec: int = PREC_NONE) -> str:
        ctx = _operand_ctx(self, (expr.left, expr.right))
        return self.binary(expr.operator, expr.left, expr.right, prec, ctx)

    def map_logical_and(self, expr: p.LogicalAnd, prec: int = PREC_NONE) -> str:
        return self._chain("&&", expr.children, prec)

    def map_logical_or(self, expr: p.LogicalOr, prec: int = PREC_NONE) -> str:
        return self._chain("||", expr.children, prec)

    def map_bitwise_and(self, expr, prec: int = PREC_NONE) -> str:
        return self._chain("&", expr.children, prec)

    def map_bitwise_or(self, expr, prec: int = PREC_NONE) -> str:
        return self._chain("|", expr.children, prec)

    def map_bitwise_xor(self, expr, prec: int = PREC_NONE) -> str:
        return self._chain("^", expr.children, prec)

    def _chain(self, op: str, children: Sequence[Expression], prec: int) -> str:
        if not children:
            return "1" if op == "&&" else "0"
        own = PRECEDENCE[op]
        # operands of `&`, `|`, `^` other than atoms, and `&&` inside `||`, get parentheses
        # the grammar does not need: OpenCL compilers warn about them otherwise (PoCL prints
        # "N warnings generated." on the translated program's stderr)
        first = PRECEDENCE["unary"] if op in ("&", "|", "^") else own + (op == "||")
        rest = max(first, own + 1)
        parts = [self.rec(children[0], first)] + [self.rec(c, rest) for c in children[1:]]
        return self.parens(f" {op} ".join(parts), own, prec)

    def map_logical_not(self, expr: p.LogicalNot, prec: int = PREC_NONE) -> str:
        return self.parens("!" + self.rec(expr.child, PRECEDENCE["unary"]),
                           PRECEDENCE["unary"], prec)

    def map_bitwise_not(self, expr, prec: int = PREC_NONE) -> str:
        return self.parens("~" + self.rec(expr.child, PRECEDENCE["unary"]),
                           PRECEDENCE["unary"], prec)

    def map_left_shift(self, expr, prec: int = PREC_NONE) -> str:
        return self.binary("<<", expr.shiftee, expr.shift, prec)

    def map_right_shift(self, expr, prec: int = PREC_NONE) -> str:
        return self.binary(">>", expr.shiftee, expr.shift, prec)

    def map_if(self, expr: p.If, prec: int = PREC_NONE) -> str:
        own = PRECEDENCE["?:"]
        ctx = self.result_ctx(expr)
        text = (f"{self.rec(expr.condition, own + 1)} ? {self.in_ctx(ctx, expr.then, own + 1)}"
                f" : {self.in_ctx(ctx, expr.else_, own)}")
        return self.parens(text, own, prec)

    def map_type_cast(self, expr, prec: int = PREC_NONE) -> str:
        return self.cast(np.dtype(expr.dtype), expr.child, prec)

    # -- subscripts -----------------------------------------------------------------------

    def map_subscript(self, expr: p.Subscript, prec: int = PREC_NONE) -> str:
        if not isinstance(expr.aggregate, p.Variable):
            raise CodegenError(f"cannot subscript {expr.aggregate}")
        name = expr.aggregate.name
        indices = tuple(expr.index_tuple)
        if self.flat_index is not None:
            flat = self.flat_index(name, indices)
            return f"{safe_name(name)}[{self.index_text(flat)}]"
        return safe_name(name) + "".join(f"[{self.rec(i, PREC_NONE)}]" for i in indices)

    def index_text(self, flat: Expression) -> str:
        """The text of a flat element index (`flat_index`'s answer)."""
        return self.rec(flat, PREC_NONE)

    def map_linear_subscript(self, expr, prec: int = PREC_NONE) -> str:
        return f"{self.rec(expr.aggregate, PRECEDENCE['postfix'])}[{self.rec(expr.index)}]"

    def map_reduction(self, expr, prec: int = PREC_NONE) -> str:
        raise AssertionError(f"reduction {expr} was not lowered before printing")   # a bug

    def map_lookup(self, expr, prec: int = PREC_NONE) -> str:
        raise CodegenError(f"attribute lookup {expr} is not supported by the OpenCL target")

    # -- helpers --------------------------------------------------------------------------

    def helper_definitions(self) -> str:
        """C definitions of every helper function used so far, in a deterministic order."""
        plain = sorted(h for h in self.helpers if not is_complex_helper(h))
        return ("".join(helper_definition(kind, dtype) for kind, dtype in plain)
                + complex_helper_definitions(self.helpers))


def _real_constant(expr: Expression) -> float | None:
    """The value of a floating-point constant (through conversions of it), else None."""
    while isinstance(expr, TypeCast) and np.dtype(expr.dtype).kind == "f":
        expr = expr.child
    return float(expr) if isinstance(expr, (float, np.floating)) else None


def _exact_power(base: Expression, value: float | None, dtype: np.dtype) -> Expression | None:
    """``pow(x, y)`` for a constant y of 2, 1 or -1 as the one correctly rounded operation
    gcc and gfortran fold it to (``x*x``, ``x``, ``1/x``; from -O1, -1 and 1 from -O0): the
    device's pow may be an ulp away (PoCL and NVIDIA are, in ~5% of doubles) (h72)."""
    if value == 2.0:
        return p.Product((base, base))
    if value == 1.0:
        return base
    if value == -1.0:
        return p.Quotient(np.dtype(dtype).type(1.0), base)
    return None


def _is_minus_one(expr: Expression) -> bool:
    return isinstance(expr, (int, float, np.number)) and not isinstance(expr, bool) \
        and expr == -1


def _negated(expr: Expression) -> Expression | None:
    """For ``a + x`` written as ``a - y``: y if x is a negative literal or ``-c * z``."""
    if isinstance(expr, (int, float)) and not isinstance(expr, bool) and expr < 0:
        return -expr
    if isinstance(expr, p.Product) and len(expr.children) >= 2:
        c = expr.children[0]
        if isinstance(c, (int, float)) and not isinstance(c, bool) and c < 0:
            rest = expr.children[1:]
            if c == -1:
                return rest[0] if len(rest) == 1 else p.Product(rest)
            return p.Product((-c, *rest))
    return None


def _operand_ctx(printer: CExpressionPrinter, operands: Sequence[Expression]) -> np.dtype | None:
    """The promoted type of the non-literal operands (what a float literal among them adopts)."""
    dts = [printer.dtype_of(o) for o in operands
           if isinstance(o, p.ExpressionNode) or isinstance(o, np.generic)]
    dts = [np.dtype(d) for d in dts if d is not None]
    return np.result_type(*dts) if dts else None


def to_c(expr: Expression, *, dtype_of: DtypeOf | None = None, target: str = "c",
         ctx: np.dtype | None = None) -> str:
    """Print `expr` as a C expression.

    Without `dtype_of`, every value is an integer and floor division / modulo operands are
    trusted to be non-negative (host-side sizes: ``(n + 127) // 128`` -> ``(n + 127) / 128``).
    """
    return CExpressionPrinter(dtype_of, target=target)(expr, ctx=ctx)
