"""C expressions (pycparser) -> IR expressions (pymbolic) with C semantics.

Every visited expression comes back as a `TExpr`: the IR expression and its C type.  The IR
is typed numpy-like (shared by codegen): where numpy promotion would differ from C's usual
arithmetic conversions (int + unsigned, int * float, char arithmetic, ...), a `TypeCast` makes
the C conversion explicit.  Integer ``/`` is `Quotient` (truncating, the IR contract), ``%`` is
the IR function ``rem``; math.h functions become IR functions, their float forms computing in
float32 and their double forms in float64, exactly as C converts the arguments.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple, Protocol

import numpy as np
import pymbolic.primitives as p
from pycparser import c_ast
from pycparser.c_generator import CGenerator

from frontends.c.preprocess import SourceText
from frontends.c.typemodel import (FLOAT32, FLOAT64, INT32, INT64, CType, FileScope,
                                   common_type, long_double_literal_as, parse_constant,
                                   promote_integer)
from frontends.pragmas import declared_functions
from translator.diagnostics import (FrontendError, TranslatorError, UnsupportedConstructError,
                                    too_deep)
from translator.ir.expr import MATH_ARITY, Expression, TypeCast, extend_chain
from translator.records import dataclass

BOOL = np.dtype(np.bool_)


class TExpr(NamedTuple):
    """An IR expression and its C type.  `weak`: a Python int from an int literal (it adapts
    to the other operand exactly as C converts an int constant)."""

    expr: Expression
    dtype: np.dtype
    weak: bool = False


@dataclass(frozen=True)
class Binding:
    """What a C name means inside a region.

    kind: "loop" (a loop variable: `value` is its IR value), "local" (declared in the region:
    an IR temporary `name`), "outer" (declared outside the region: `storage` is param, local
    or global).
    """

    kind: str
    name: str
    ctype: CType
    value: Expression | None = None
    storage: str = ""


@dataclass(frozen=True)
class View:
    """What a pointer parameter of an inlined callee points into (`frontends.c.inline`): the
    array (or scalar) `base`, the fixed leading indices `prefix` and the `offset` on the last
    axis (None: a scalar)."""

    base: Binding
    prefix: tuple[Expression, ...]
    offset: Expression | None


def through_view(view: View, index: Expression) -> tuple[Binding, tuple[Expression, ...]]:
    """The element ``p[index]`` of a view: the base and its indices (none: a scalar)."""
    if view.offset is None:
        return view.base, ()
    last = index if view.offset == 0 else p.Sum((view.offset, index))
    return view.base, (*view.prefix, last)


class Environment(Protocol):
    src: SourceText
    fscope: FileScope

    def lookup(self, name: str, node: c_ast.Node) -> Binding: ...

    def pointer_origin(self, name: str, node: c_ast.Node
                       ) -> tuple[Binding, Expression] | None: ...

    def record_view(self, b: Binding, dtype: np.dtype) -> Binding: ...


#: math.h name -> (IR function, argument type: "d" double, "f" float, "i" int, "l" long).
MATH_FUNCTIONS: dict[str, tuple[str, str]] = {}
for _ir in ("sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
            "atan2", "sinh", "cosh", "tanh", "pow", "floor", "ceil", "trunc", "round", "fmod",
            "copysign", "ldexp", "ilogb", *MATH_ARITY):
    MATH_FUNCTIONS[_ir] = (_ir, "d")
    MATH_FUNCTIONS[_ir + "f"] = (_ir, "f")
for _c, _ir in (("fabs", "abs"), ("fmin", "min"), ("fmax", "max"), ("nearbyint", "rint"),
                ("scalbn", "ldexp")):
    # nearbyint is rint without the inexact flag (OpenCL has no flags); scalbn is ldexp
    # where FLT_RADIX is 2, as everywhere OpenCL runs
    MATH_FUNCTIONS[_c] = (_ir, "d")
    MATH_FUNCTIONS[_c + "f"] = (_ir, "f")
MATH_FUNCTIONS.update({"abs": ("abs", "i"), "labs": ("abs", "l"), "llabs": ("abs", "l")})
#: The classification macros as the preprocessor leaves them (glibc's math.h); the argument
#: keeps its own float type.
CLASSIFICATION: dict[str, str] = {"__builtin_isnan": "isnan", "__builtin_isfinite": "isfinite",
                                  "__builtin_isnormal": "isnormal",
                                  "__builtin_isinf_sign": "isinf_sign"}
#: The comparison macros as glibc's math.h leaves them: quiet comparisons, the same values as
#: the operators (OpenCL has no floating-point exceptions to keep quiet).
COMPARISON: dict[str, str] = {"__builtin_isgreater": ">", "__builtin_isgreaterequal": ">=",
                              "__builtin_isless": "<", "__builtin_islessequal": "<=",
                              "__builtin_islessgreater": "<>", "__builtin_isunordered": "nan"}
#: INFINITY, HUGE_VAL, HUGE_VALF and NAN as glibc's math.h spells them.
CONSTANT_BUILTINS: dict[str, object] = {
    "__builtin_inff": np.float32(np.inf), "__builtin_inf": np.float64(np.inf),
    "__builtin_huge_valf": np.float32(np.inf), "__builtin_huge_val": np.float64(np.inf),
    "__builtin_nanf": np.float32(np.nan), "__builtin_nan": np.float64(np.nan),
}
#: math.h functions OpenCL C lacks, with the reason the translator cannot offer them.
NOT_IN_OPENCL: dict[str, str] = {
    "remquo": "it returns a result through a pointer",
    **dict.fromkeys(("frexpl", "modfl"), "long double is not supported on the device"),
    **dict.fromkeys(("j0", "j1", "jn", "y0", "y1", "yn"), "OpenCL C has no Bessel functions"),
    "nan": "it takes a string (write NAN)", "nexttoward": "it takes a long double",
    "scalbln": "OpenCL C has no such function (write ldexp(x, n) with an int n)",
    "__builtin_fpclassify": "OpenCL C has no fpclassify",
}
#: lround, lrint and their llround, llrint and float forms: the IR rounding function, whose
#: result C converts to long (long long is as wide on every 64-bit target OpenCL runs beside).
TO_LONG: dict[str, tuple[str, np.dtype]] = {
    f"{prefix}{base}{suffix}": (base[1:], FLOAT32 if suffix else FLOAT64)
    for prefix in ("", "l") for base in ("lround", "lrint") for suffix in ("", "f")}
#: frexp and modf (and their float forms), which return a second result through a pointer:
#: the value's type.
POINTER_RESULTS: dict[str, np.dtype] = {"frexp": FLOAT64, "frexpf": FLOAT32, "modf": FLOAT64,
                                        "modff": FLOAT32}
#: stdio.h functions: input and output, which a device cannot do.
IO_FUNCTIONS = frozenset({
    "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "puts", "fputs",
    "putchar", "fputc", "putc", "scanf", "fscanf", "sscanf", "getchar", "fgetc", "getc", "gets",
    "fgets", "fopen", "fclose", "fread", "fwrite", "fflush", "perror", "fseek", "ftell"})
#: signbit as glibc's math.h leaves it (the generic builtin of GCC 6 on, or its older forms).
SIGNBIT = frozenset({"__builtin_signbit", "__builtin_signbitf", "__builtin_signbitl"})
_ARITY = {"atan2": 2, "pow": 2, "fmod": 2, "copysign": 2, "min": 2, "max": 2, "ldexp": 2,
          **MATH_ARITY}
_ARG_TYPE = {"d": FLOAT64, "f": FLOAT32, "i": INT32, "l": INT64}

_RELATIONAL = frozenset({"<", "<=", ">", ">=", "==", "!="})
_BITWISE = {"&": p.BitwiseAnd, "|": p.BitwiseOr, "^": p.BitwiseXor}


def _not_in_opencl(name: str | None) -> str:
    """Why a math.h function (any of its double, float and long double forms) cannot be
    translated, or "" if it is not one of those."""
    if not name:
        return ""
    if name in NOT_IN_OPENCL:
        return NOT_IN_OPENCL[name]
    base = name[:-1] if name[-1:] in ("f", "l") else ""
    if base in NOT_IN_OPENCL:
        return NOT_IN_OPENCL[base]
    if name.endswith("l") and base in MATH_FUNCTIONS:
        return "long double is not supported on the device"
    builtin = name.removeprefix("__builtin_")
    if builtin != name and (builtin in ("infl", "huge_vall", "nanl")):
        return "long double is not supported on the device"
    return ""


def is_constant(expr: Expression) -> bool:
    return isinstance(expr, (int, float, np.generic)) and not isinstance(expr, bool)


def convert(te: TExpr, dtype: np.dtype) -> Expression:
    """`te` converted to `dtype` as C converts on assignment or argument passing.  A
    conversion to `_Bool` is a test against zero (``_Bool b = 0.5`` is 1, as a NaN is), not
    a truncation."""
    if te.dtype == dtype:
        return te.expr
    if dtype == BOOL and not is_constant(te.expr):
        return as_condition(te)
    if is_constant(te.expr):
        if te.weak and dtype.kind in "iu" and _fits(te.expr, dtype):
            return te.expr
        return _convert_constant(te.expr, dtype)
    return TypeCast(dtype, te.expr)


def _fits(value, dtype: np.dtype) -> bool:
    info = np.iinfo(dtype)
    return info.min <= int(value) <= info.max


def _convert_constant(value, dtype: np.dtype) -> Expression:
    if dtype.kind in "iu" and not _fits(int(value), dtype):
        # C wraps modulo 2**bits (well defined for unsigned targets).
        bits = 8 * dtype.itemsize
        wrapped = int(value) % (1 << bits)
        if dtype.kind == "i" and wrapped >= 1 << (bits - 1):
            wrapped -= 1 << bits
        return dtype.type(wrapped)
    if dtype.kind == "b":
        return dtype.type(value != 0)
    if dtype.kind in "iu":
        return dtype.type(int(value))
    return dtype.type(value)


def as_condition(te: TExpr) -> Expression:
    """A C controlling expression as an IR truth value (non-zero test)."""
    if te.dtype == BOOL:
        return te.expr
    return p.Comparison(te.expr, "!=", 0)


def _promoted(te: TExpr) -> TExpr:
    dtype = promote_integer(te.dtype)
    if dtype == te.dtype:
        return te
    return TExpr(convert(te, dtype), dtype, te.weak)


def balance(a: TExpr, b: TExpr) -> tuple[Expression, Expression, np.dtype]:
    """Apply the usual arithmetic conversions; cast where numpy-like promotion differs."""
    dtype = common_type(promote_integer(a.dtype), promote_integer(b.dtype))
    if a.weak and b.weak:
        return convert(a, dtype), convert(b, dtype), dtype
    if a.weak or b.weak:
        weak, strong = (a, b) if a.weak else (b, a)
        # a weak operand that is not a literal (``1 << k``) is converted like any other
        if strong.dtype == dtype and (dtype.kind == "f" or (is_constant(weak.expr)
                                                           and _fits(weak.expr, dtype))):
            return a.expr, b.expr, dtype
    elif np.result_type(a.dtype, b.dtype) == dtype:
        return a.expr, b.expr, dtype
    return convert(a, dtype), convert(b, dtype), dtype


class ExpressionBuilder:
    """Visitor over pycparser expression nodes (methods named after pycparser classes)."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.fscope = env.fscope

    def span(self, node: c_ast.Node, token: str | None = None):
        span = self.env.src.node_span(node, token)
        via = getattr(self.env, "via", ())   # inside an inlined callee: notes at its calls
        return replace(span, inlined_at=via) if via and span is not None else span

    def _declared_functions(self) -> dict:
        site = getattr(self.env, "site", None)
        return declared_functions(site.calls) if site is not None else {}

    def visit(self, node: c_ast.Node) -> TExpr:
        method = getattr(self, "visit_" + type(node).__name__, None)
        if method is None:
            raise UnsupportedConstructError(
                f"unsupported construct in a region: C {type(node).__name__} expression",
                self.span(node))
        try:
            return method(node)
        except TranslatorError as err:
            raise err.with_span(self.span(node))
        except RecursionError:
            raise too_deep(self.span(node)) from None
        # anything else is a bug in the translator: an internal error (exit 2), not hidden

    # -- leaves ---------------------------------------------------------------------------

    def visit_Constant(self, node: c_ast.Constant) -> TExpr:
        if node.type == "string":
            raise UnsupportedConstructError("string literals are not supported in a region",
                                            self.span(node, node.value))
        try:
            value, dtype = parse_constant(node)
        except ValueError as err:   # a literal OpenCL C has no type for
            raise UnsupportedConstructError(str(err),
                                            self.span(node, node.value)) from None
        if dtype == INT32:
            return TExpr(int(value), INT32, weak=True)
        return TExpr(dtype.type(value), dtype)

    def visit_ID(self, node: c_ast.ID) -> TExpr:
        if node.name in self.fscope.enum_values:
            return TExpr(self.fscope.enum_values[node.name], INT32, weak=True)
        b = self.env.lookup(node.name, node)
        if b.kind == "loop":
            return loop_variable(b.value, b.ctype.dtype)
        if not b.ctype.is_scalar:
            what = b.ctype.description or f"{b.ctype.kind} {node.name!r}"
            if b.ctype.is_buffer:
                what = f"array {node.name!r} used without a subscript"
            raise UnsupportedConstructError(f"unsupported construct in a region: {what}",
                                            self.span(node, node.name))
        return TExpr(p.Variable(b.name), b.ctype.dtype)

    def visit_ArrayRef(self, node: c_ast.ArrayRef) -> TExpr:
        b, indices = self.array_access(node)
        return TExpr(subscript(b.name, indices), b.ctype.dtype)

    def array_access(self, node: c_ast.Node, *, element: bool = False
                     ) -> tuple[Binding, tuple[Expression, ...]]:
        """The array and the IR subscripts of ``a[i][j]`` (or ``*a``), fully subscripted;
        with `element`, of the struct ``p[i]`` of an array of structs (`member_access`)."""
        subs: list[c_ast.Node] = []
        base = node
        while isinstance(base, c_ast.ArrayRef):
            subs.append(base.subscript)
            base = base.name
        if isinstance(base, c_ast.UnaryOp) and base.op == "*" and not subs:
            base, subs = base.expr, [c_ast.Constant("int", "0")]
        if isinstance(base, c_ast.StructRef):
            if _struct_element(base) is not None and self._of_records(base):
                view, indices, _ = self.member_access(base, list(reversed(subs)))
                return view, indices
            return self.visit(base)  # raises: struct member access
        if not isinstance(base, c_ast.ID):
            raise UnsupportedConstructError("unsupported construct in a region: subscript of "
                                            "a computed pointer", self.span(node))
        derived = None if element else self.env.pointer_origin(base.name, base)
        if derived is not None:   # p[i] with p = u + k: u[k + i] (frontends.c.provenance)
            b, offset = derived
            index = self.integer(subs[0], "an array subscript")
            return b, (index if offset == 0 else p.Sum((offset, index)),)
        b = self.env.lookup(base.name, base)
        _check_whole(b, base.name, element, self.span(node))
        if b.kind == "view":   # a pointer or array parameter of an inlined callee
            rank = len(b.ctype.dims) - element if b.ctype.kind == "array" else 1
            if len(subs) != rank:
                raise UnsupportedConstructError(
                    f"pointer {base.name!r} is subscripted with {len(subs)} indices",
                    self.span(base, base.name))
            first, *rest = (self.integer(s, "an array subscript") for s in reversed(subs))
            viewed, indices = through_view(b.value, first)
            return viewed, (*indices, *rest)
        rank = len(b.ctype.dims) - element if b.ctype.kind == "array" else 1
        if not b.ctype.is_buffer:
            raise UnsupportedConstructError(
                f"unsupported construct in a region: {base.name!r} is subscripted but is not "
                f"an array or a pointer to numbers ({b.ctype.description or b.ctype.kind})",
                self.span(base, base.name))
        if len(subs) != rank:
            raise UnsupportedConstructError(
                f"array {base.name!r} has {rank} dimension(s) but is subscripted with "
                f"{len(subs)}: only element accesses are supported", self.span(base, base.name))
        indices = tuple(self.integer(s, "an array subscript") for s in reversed(subs))
        return b, indices

    def integer(self, node: c_ast.Node, what: str) -> Expression:
        te = self.visit(node)
        if te.dtype.kind not in "iub":
            raise FrontendError(f"{what} must be an integer expression", self.span(node))
        return te.expr

    # -- operators ------------------------------------------------------------------------

    def visit_BinaryOp(self, node: c_ast.BinaryOp) -> TExpr:
        op = node.op
        if op in ("&&", "||"):
            a, b = self.condition(node.left), self.condition(node.right)
            cls = p.LogicalAnd if op == "&&" else p.LogicalOr
            return TExpr(cls((a, b)), BOOL)
        spine = _left_spine(node)
        value = self.visit(spine[-1].left)
        for link in reversed(spine):
            value = self.binary(link.op, value, self.visit(link.right), link)
        return value

    def binary(self, op: str, left: TExpr, right: TExpr, node: c_ast.Node) -> TExpr:
        """``left op right`` with C's conversions (also used for ``x op= e``)."""
        if op in ("<<", ">>"):
            return self._shift(op, left, right)
        a, b, dtype = balance(left, right)
        weak = left.weak and right.weak
        if op in _RELATIONAL:
            return TExpr(p.Comparison(a, op, b), BOOL)
        if op in _BITWISE:
            self._require_integer(node, dtype, op)
            return TExpr(_BITWISE[op]((a, b)), dtype, weak)
        return self._arithmetic(node, op, a, b, dtype, weak, chain=left.dtype == dtype)

    def _arithmetic(self, node, op: str, a, b, dtype: np.dtype, weak: bool, *,
                    chain: bool = False) -> TExpr:
        """``a op b``; with `chain` (``a`` has the result's type), a left operand that is a
        sum (product) itself is extended, so that ``a + b + c`` is one flat Sum."""
        if weak and isinstance(a, int) and isinstance(b, int) and (b != 0 or op in "+-*"):
            value = _fold_int(op, a, b)
            if value is not None and -2**31 <= value < 2**31:
                return TExpr(value, INT32, True)
        if op == "+":
            return TExpr(extend_chain(p.Sum, a, b, chain), dtype, weak)
        if op == "-":
            return TExpr(extend_chain(p.Sum, a, negate(b), chain), dtype, weak)
        if op == "*":
            return TExpr(extend_chain(p.Product, a, b, chain), dtype, weak)
        if op == "/":
            return TExpr(p.Quotient(a, b), dtype, weak)
        if op == "%":
            self._require_integer(node, dtype, op)
            return TExpr(p.Call(p.Variable("rem"), (a, b)), dtype, weak)
        raise UnsupportedConstructError(f"operator {op!r} is not supported in a region",
                                        self.span(node))

    def _shift(self, op: str, left: TExpr, right: TExpr) -> TExpr:
        left, right = _promoted(left), _promoted(right)
        folded = _fold_shift(op, left, right)
        if folded is not None:      # #define N (1 << 20) as a loop bound (h72)
            return folded
        cls = p.LeftShift if op == "<<" else p.RightShift
        return TExpr(cls(left.expr, right.expr), left.dtype, left.weak)

    def _require_integer(self, node, dtype: np.dtype, op: str) -> None:
        if dtype.kind not in "iub":
            raise FrontendError(f"operator {op!r} needs integer operands", self.span(node))

    def condition(self, node: c_ast.Node) -> Expression:
        """A controlling expression (if, ?:, &&, ||, !) as an IR truth value."""
        return as_condition(self.visit(node))

    def visit_UnaryOp(self, node: c_ast.UnaryOp) -> TExpr:
        op = node.op
        if op == "sizeof":
            return self._sizeof(node)
        if op in ("++", "--", "p++", "p--"):
            raise UnsupportedConstructError(
                "increment or decrement inside an expression is not supported in a region; "
                "write it as a separate statement", self.span(node))
        if op == "&":
            raise UnsupportedConstructError("taking an address ('&') is not supported in a "
                                            "region", self.span(node))
        if op == "*":
            b, idx = self.array_access(node)
            return TExpr(subscript(b.name, idx), b.ctype.dtype)
        if op == "!":
            return TExpr(p.LogicalNot(self.condition(node.expr)), BOOL)
        te = _promoted(self.visit(node.expr))
        if op == "+":
            return te
        if op == "-":
            return TExpr(negate(te.expr), te.dtype, te.weak)
        if op == "~":
            self._require_integer(node, te.dtype, op)
            return TExpr(p.BitwiseNot(te.expr), te.dtype, te.weak)
        raise UnsupportedConstructError(f"operator {op!r} is not supported in a region",
                                        self.span(node))

    def _sizeof(self, node: c_ast.UnaryOp) -> TExpr:
        size = self.fscope.constant_value(node)
        if size is None and not isinstance(node.expr, c_ast.Typename):
            size = self.visit(node.expr).dtype.itemsize
        if size is None:
            raise UnsupportedConstructError("sizeof of this type is not supported in a "
                                            "region", self.span(node))
        return TExpr(np.uint64(size), np.dtype(np.uint64))

    def visit_Cast(self, node: c_ast.Cast) -> TExpr:
        dtype = self.fscope.typename_dtype(node.to_type, self.span(node))
        if isinstance(node.expr, c_ast.Constant):   # (double)2.2e-16L: <float.h>'s DBL_*
            value = long_double_literal_as(node.expr.value, dtype)
            if value is not None:
                return TExpr(dtype.type(value), dtype)
        te = self.visit(node.expr)
        if te.dtype == dtype:
            return TExpr(te.expr, dtype)
        return TExpr(convert(TExpr(te.expr, te.dtype), dtype), dtype)

    def visit_TernaryOp(self, node: c_ast.TernaryOp) -> TExpr:
        cond = self.condition(node.cond)
        a, b, dtype = balance(self.visit(node.iftrue), self.visit(node.iffalse))
        return TExpr(p.If(cond, a, b), dtype)

    def visit_FuncCall(self, node: c_ast.FuncCall) -> TExpr:
        name = node.name.name if isinstance(node.name, c_ast.ID) else None
        args = list(node.args.exprs) if node.args is not None else []
        declared = self._declared_functions()
        if name in declared:
            arg_types, result = declared[name]
            if len(args) != len(arg_types):
                raise FrontendError(f"{name} takes {len(arg_types)} argument(s) (as its "
                                    f"register_function pragma declares), not {len(args)}",
                                    self.span(node, name))
            params = tuple(convert(self.visit(a), t) for a, t in zip(args, arg_types))
            return TExpr(p.Call(p.Variable(name), params), result)
        if name in CLASSIFICATION:
            return self._classification(node, name, args)
        if name in COMPARISON:
            return self._comparison(node, name, args)
        if name in CONSTANT_BUILTINS:
            return self._constant(node, name, args)
        if name in TO_LONG or name in SIGNBIT:
            return self._rounding_or_sign(node, name, args)
        if name in POINTER_RESULTS and hasattr(self.env, "emit"):
            return self._pointer_result(node, name, args)
        refused = getattr(self.env, "refused_calls", {}).get(name)
        if refused is not None:   # an OpenACC routine gang/worker/vector
            raise UnsupportedConstructError(refused[0], self.span(node, name),
                                            notes=(refused[1],))
        if name in getattr(self.env, "functions", {}):   # defined in the file: inlined
            return self.env.inline_call(node, name, args)
        why = _not_in_opencl(name)
        if why:
            shown = name.removeprefix("__builtin_")   # a math.h macro, as cpp expanded it
            raise UnsupportedConstructError(
                f"math function {shown!r} cannot be translated: {why}", self.span(node, name))
        if name not in MATH_FUNCTIONS:
            raise UnsupportedConstructError(self._unknown_call(name), self.span(node, name))
        ir_name, kind = MATH_FUNCTIONS[name]
        arity = _ARITY.get(ir_name, 1)
        if len(args) != arity:
            raise FrontendError(f"{name} takes {arity} argument(s), not {len(args)}",
                                self.span(node, name))
        dtype = _ARG_TYPE[kind]
        params = tuple(convert(self.visit(a), dtype) for a in args)
        if ir_name == "ldexp":
            params = (params[0], convert(self.visit(args[1]), INT32))
        if ir_name == "ilogb":
            return TExpr(p.Call(p.Variable(ir_name), params), INT32)
        return TExpr(p.Call(p.Variable(ir_name), params), dtype)

    def _unknown_call(self, name: str | None) -> str:
        """Why a call of `name` (None: a computed function) cannot be translated."""
        site = getattr(self.env, "site", None)
        entry = site.visible.get(name) if site is not None and name else None
        if name is None or (entry is not None and not isinstance(
                entry[1].type, c_ast.FuncDecl)):
            shown = f"function pointer {name!r}" if name else "a function pointer"
            return (f"call through {shown} cannot be translated: the function it points to "
                    "is not known when the region is translated")
        if name in IO_FUNCTIONS:
            return (f"call to function {name!r} cannot be translated: input and output "
                    "cannot run on the device")
        return (f"call to function {name!r} cannot be translated: only math.h functions, "
                "functions this file defines (they are inlined), and functions a "
                "register_function pragma of the region declares, may be called inside a "
                "region")

    def _rounding_or_sign(self, node: c_ast.FuncCall, name: str, args: list) -> TExpr:
        """lround(x) and lrint(x) (and their ll and f forms): the rounded value as a long.
        signbit(x): nonzero iff x's sign bit is set (-0.0 and negative NaNs too), with the
        values GCC's builtin gives on x86-64: 1 for a double, the sign bit itself (INT_MIN)
        for a float."""
        shown = name.removeprefix("__builtin_")
        if len(args) != 1:
            raise FrontendError(f"{shown} takes 1 argument, not {len(args)}",
                                self.span(node, name))
        arg = self.visit(args[0])
        if name in TO_LONG:
            ir_name, dtype = TO_LONG[name]
            rounded = p.Call(p.Variable(ir_name), (convert(arg, dtype),))
            return TExpr(TypeCast(INT64, rounded), INT64)
        if name == "__builtin_signbitl" or arg.dtype.kind != "f":
            raise UnsupportedConstructError(f"{shown} of a {arg.dtype} value cannot be "
                                            "translated (long double is not supported on "
                                            "the device)", self.span(node, name))
        negative = p.Comparison(p.Call(p.Variable("copysign"), (arg.dtype.type(1), arg.expr)),
                                "<", 0)
        set_value = INT32.type(np.iinfo(INT32).min if arg.dtype == FLOAT32 else 1)
        return TExpr(p.If(negative, set_value, INT32.type(0)), INT32)

    def _pointer_result(self, node: c_ast.FuncCall, name: str, args: list) -> TExpr:
        """frexp(x, &e) and modf(x, &ip): the store through the pointer becomes a statement of
        its own, emitted before the one that uses the call's value (both read only x).

        frexp: x = f * 2**e with 0.5 <= |f| < 1; x itself and e = 0 for a zero, an infinity
        or NaN (as glibc).  modf: the integral part trunc(x) and the fractional part, both
        with the sign of x (an infinity has fractional part 0)."""
        if len(args) != 2:
            raise FrontendError(f"{name} takes 2 arguments, not {len(args)}",
                                self.span(node, name))
        dtype = POINTER_RESULTS[name]
        pointer = args[1]
        if not (isinstance(pointer, c_ast.UnaryOp) and pointer.op == "&"):
            raise UnsupportedConstructError(
                f"{name}: the second argument must be the address of a variable or an array "
                "element (&e, &e[i])", self.span(node, name))
        x = convert(self.visit(args[0]), dtype)
        target, target_dtype, token = self.env.lvalue(pointer.expr)
        if name.startswith("frexp"):
            stored, value = _frexp(x, dtype)
        else:
            stored, value = _modf(x, dtype)
        self.env.emit(target, convert(stored, target_dtype), node, token)
        return TExpr(value, dtype)

    def _comparison(self, node: c_ast.FuncCall, name: str, args: list) -> TExpr:
        """isgreater(x, y) ... isunordered(x, y): 0 or 1, like the operators."""
        shown = name.removeprefix("__builtin_")
        if len(args) != 2:
            raise FrontendError(f"{shown} takes 2 arguments, not {len(args)}",
                                self.span(node, name))
        x, y, _ = balance(self.visit(args[0]), self.visit(args[1]))
        op = COMPARISON[name]
        if op == "<>":
            return TExpr(p.LogicalOr((p.Comparison(x, "<", y), p.Comparison(x, ">", y))), BOOL)
        if op == "nan":
            return TExpr(p.LogicalOr(tuple(p.Comparison(p.Call(p.Variable("isnan"), (v,)), "!=",
                                                        0) for v in (x, y))), BOOL)
        return TExpr(p.Comparison(x, op, y), BOOL)

    def _constant(self, node: c_ast.FuncCall, name: str, args: list) -> TExpr:
        """INFINITY, HUGE_VAL(F) and NAN (``__builtin_nanf("")``: a quiet NaN)."""
        value = CONSTANT_BUILTINS[name]
        quiet = (len(args) == 1 and isinstance(args[0], c_ast.Constant)
                 and args[0].value == '""')
        if len(args) != (1 if name.startswith("__builtin_nan") else 0) or (args and not quiet):
            raise UnsupportedConstructError(
                f"{name.removeprefix('__builtin_')} with these arguments cannot be translated "
                "(write NAN or INFINITY)", self.span(node, name))
        return TExpr(value, np.dtype(type(value)))

    def _classification(self, node: c_ast.FuncCall, name: str, args: list) -> TExpr:
        """isnan, isfinite, isnormal (0 or 1 in C and OpenCL alike); isinf, which glibc
        writes as ``__builtin_isinf_sign`` (-1, 0 or 1)."""
        shown = name.removeprefix("__builtin_").removesuffix("_sign")
        if len(args) != 1:
            raise FrontendError(f"{shown} takes 1 argument, not {len(args)}",
                                self.span(node, name))
        arg = self.visit(args[0])
        x = arg.expr if arg.dtype.kind == "f" else convert(arg, FLOAT64)
        ir_name = CLASSIFICATION[name]
        if ir_name != "isinf_sign":
            return TExpr(p.Call(p.Variable(ir_name), (x,)), INT32)
        isinf = p.Call(p.Variable("isinf"), (x,))
        sign = p.If(p.Comparison(x, "<", 0), -1, 1)
        return TExpr(p.If(p.Comparison(isinf, "!=", 0), sign, 0), INT32)

    # -- constructs that cannot be offloaded ---------------------------------------------

    def visit_StructRef(self, node: c_ast.StructRef) -> TExpr:
        field = getattr(node.field, "name", "?")
        if _struct_element(node) is not None and self._of_records(node):
            view, indices, dtype = self.member_access(node)
            return TExpr(subscript(view.name, indices), dtype)
        if _element_of_array(node) or _struct_element(node) is not None and node.type == ".":
            raise UnsupportedConstructError(
                f"a member of an array of structs ('{CGenerator().visit(node)}') is not "
                f"supported in a region{self._why_not_records(node)}; keep each member in an "
                "array of its own (a "
                f"structure of arrays: '{field}[i]' for '{CGenerator().visit(node)}'), or "
                "copy the members into such arrays before the region", self.span(node))
        raise UnsupportedConstructError(
            f"struct or union member access ('{node.type}{field}') is not supported in a "
            "region; copy the member into a scalar or array before the region",
            self.span(node))

    def _of_records(self, node: c_ast.StructRef) -> bool:
        """Whether the member `node` names is one of an array of (or a pointer to) structs
        with a `Record` (else: the messages of `visit_StructRef`)."""
        base = _struct_element(node)
        while isinstance(base, c_ast.ArrayRef):
            base = base.name
        if not isinstance(base, c_ast.ID) or base.name in self.fscope.enum_values:
            return False
        try:
            b = self.env.lookup(base.name, base)
        except TranslatorError:   # not a variable the region can use: the messages below
            return False
        if b.kind == "view":
            b = b.value.base
        return b.ctype.record is not None

    def _why_not_records(self, node: c_ast.StructRef) -> str:
        """Why the array whose member `node` names cannot be read as numbers (its type), for
        a message: "" where that is not known."""
        base = _struct_element(node)
        while isinstance(base, (c_ast.ArrayRef, c_ast.BinaryOp, c_ast.StructRef)):
            base = base.left if isinstance(base, c_ast.BinaryOp) else base.name
        site = getattr(self.env, "site", None)
        entry = site.visible.get(base.name) if site and isinstance(base, c_ast.ID) else None
        if entry is None:
            return ""
        ctype = self.fscope.resolve(entry[1].type)
        return f" ({base.name!r} has type {ctype.description})" if ctype.description else ""

    def member_access(self, node: c_ast.StructRef, subs: list[c_ast.Node] = ()
                      ) -> tuple[Binding, tuple[Expression, ...], np.dtype]:
        """``p[i].x`` (``(p + i)->x``, ``p->x``, ``p[i].pos.x``; ``p[i].x[k]`` with `subs`
        for a member array) of an array of structs whose members are numbers, arrays of
        numbers or such structs: the view of p's memory as an array of x's type
        (`Environment.record_view`), its subscripts (``[i, x's offset in elements + k]``)
        and x's type.  Each member is apart from the
        others in the subscripts, so the analyses see members as disjoint."""
        b, indices = self.array_access(_struct_element(node), element=True)
        record, field = b.ctype.record, _member_path(node)
        member = record.member(field)
        if member is None:
            raise FrontendError(f"{record.name} has no member {field!r}", self.span(node))
        dtype, offset, dims = member
        if len(subs) != len(dims):
            raise UnsupportedConstructError(
                f"member {field!r} of {record.name} has {len(dims)} dimension(s) but is "
                f"subscripted with {len(subs)}: only its elements can be used in a region",
                self.span(node))
        index: Expression = offset // dtype.itemsize
        linear: Expression | None = None
        for sub, extent in zip(subs, dims):
            value = self.integer(sub, "an array subscript")
            linear = value if linear is None else p.Sum((p.Product((linear, extent)), value))
        if linear is not None:
            index = linear if index == 0 else p.Sum((index, linear))
        return self.env.record_view(b, dtype), (*indices, index), dtype

    def visit_Assignment(self, node: c_ast.Assignment) -> TExpr:
        raise UnsupportedConstructError("assignment inside an expression is not supported in "
                                        "a region; write it as a separate statement",
                                        self.span(node))

    def visit_ExprList(self, node: c_ast.ExprList) -> TExpr:
        raise UnsupportedConstructError("the comma operator is not supported in a region",
                                        self.span(node))


def _call(name: str, *args: Expression) -> p.Call:
    return p.Call(p.Variable(name), args)


def _frexp(x: Expression, dtype: np.dtype) -> tuple[TExpr, Expression]:
    """(the exponent frexp stores, as an int; the fraction it returns)."""
    ordinary = p.LogicalAnd((p.Comparison(x, "!=", 0),
                             p.Comparison(_call("isfinite", x), "!=", 0)))
    exponent = p.Sum((_call("ilogb", x), 1))
    stored = p.If(ordinary, exponent, INT32.type(0))
    return TExpr(stored, INT32), p.If(ordinary, _call("ldexp", x, negate(exponent)), x)


def _modf(x: Expression, dtype: np.dtype) -> tuple[TExpr, Expression]:
    """(the integral part modf stores; the fractional part it returns)."""
    whole = _call("trunc", x)
    zero = _call("copysign", dtype.type(0), x)
    rest = _call("copysign", p.Sum((x, negate(whole))), x)
    return TExpr(whole, dtype), p.If(p.Comparison(_call("isinf", x), "!=", 0), zero, rest)


def subscript(name: str, indices: tuple[Expression, ...]) -> p.Subscript:
    """``name[i]`` (one index) or ``name[i, j]`` as the kernel language writes them."""
    if not indices:   # a scalar reached through a pointer parameter (``*p`` with p = &s)
        return p.Variable(name)
    return p.Subscript(p.Variable(name), indices[0] if len(indices) == 1 else indices)


def _left_spine(node: c_ast.BinaryOp) -> list[c_ast.BinaryOp]:
    """`node` and the arithmetic operations down its left operands (``a + b - c``: the ``-``
    then the ``+``), walked without recursion: a sum of thousands of terms is that deep."""
    spine = [node]
    while isinstance(spine[-1].left, c_ast.BinaryOp) and spine[-1].left.op not in ("&&", "||"):
        spine.append(spine[-1].left)
    return spine


def negate(expr: Expression) -> Expression:
    """``-expr``; constants are folded unless unsigned (their negation wraps around)."""
    if is_constant(expr) and getattr(expr, "dtype", np.dtype(np.int64)).kind != "u":
        return -expr
    return p.Product((-1, expr))


def _fold_shift(op: str, left: TExpr, right: TExpr) -> TExpr | None:
    """``a << b`` or ``a >> b`` of two integer constants where C defines it (and gcc's
    arithmetic right shift of a negative ``a``), in the type of ``a``; else None."""
    a, b, dtype = left.expr, right.expr, np.dtype(left.dtype)
    constant = (int, np.integer)
    if (not isinstance(a, constant) or not isinstance(b, constant)
            or isinstance(a, (bool, np.bool_)) or dtype.kind not in "iu"
            or not 0 <= int(b) < 8 * dtype.itemsize):
        return None
    a, b = int(a), int(b)
    if op == ">>":
        value = a >> b
    elif dtype.kind == "u":
        value = (a << b) % (1 << 8 * dtype.itemsize)
    elif a >= 0 and a << b <= np.iinfo(dtype).max:
        value = a << b
    else:
        return None
    if left.weak:
        return TExpr(value, INT32, True)
    return TExpr(dtype.type(value), dtype)


def _fold_int(op: str, a: int, b: int) -> int | None:
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    if op == "%":
        return a - b * _fold_int("/", a, b)
    return None


def loop_variable(value: Expression, dtype: np.dtype) -> TExpr:
    """The value of a loop variable of type `dtype`: an iname is an ``int``, so a ``long``,
    ``size_t`` or ``unsigned`` variable is converted (``i * n`` with ``long i`` is a 64-bit
    product in C; subscripts and bounds drop the conversion again) (h72)."""
    if np.dtype(dtype) == INT32 or np.dtype(dtype).kind not in "iu":
        return TExpr(value, dtype)
    return TExpr(TypeCast(np.dtype(dtype), value), dtype)


def _struct_element(node: c_ast.StructRef) -> c_ast.Node | None:
    """The struct whose member `node` names, as an element of an array: ``p[i]`` for
    ``p[i].x`` and ``p[i].pos.x``, ``p[i]`` for ``(p + i)->x``, ``p[0]`` for ``p->x``; None
    for another."""
    base = node.name
    if node.type == "." and isinstance(base, c_ast.StructRef):
        return _struct_element(base)   # p[i].pos.x: a member of a member struct
    if node.type == ".":
        return base if isinstance(base, c_ast.ArrayRef) else None
    if isinstance(base, c_ast.ID):
        return c_ast.ArrayRef(base, c_ast.Constant("int", "0"), coord=base.coord)
    if isinstance(base, c_ast.BinaryOp) and base.op == "+":
        return c_ast.ArrayRef(base.left, base.right, coord=base.coord)
    return None


def _member_path(node: c_ast.StructRef) -> str:
    """The member `node` names from its struct element on: ``pos.x`` for ``p[i].pos.x``."""
    names = [node.field.name]
    while node.type == "." and isinstance(node.name, c_ast.StructRef):
        node = node.name
        names.append(node.field.name)
    return ".".join(reversed(names))


def _check_whole(b: Binding, name: str, element: bool, span) -> None:
    """Refuse a struct of an array of structs used whole, or members of another array."""
    records = b.ctype.record if b.kind != "view" else b.value.base.ctype.record
    if records is not None and not element:
        raise UnsupportedConstructError(
            f"an element of the array of structs {name!r} is used whole: only its members "
            f"that are numbers ('{name}[i].{records.members[0][0]}') can be used in a region",
            span)
    if b.kind == "view" and element and (b.value.prefix or b.value.offset != 0):
        raise UnsupportedConstructError(
            f"{name!r} points into an array of structs at an offset: pass the array itself",
            span)


def _element_of_array(node: c_ast.StructRef) -> bool:
    """Whether `node` is a member of an element of an array of structs: ``p[i].x``,
    ``p[i][j].x``, ``(p + i)->x`` (h74)."""
    base = node.name
    if node.type == "->":
        return isinstance(base, c_ast.BinaryOp) and base.op in "+-"
    return isinstance(base, c_ast.ArrayRef)
