"""Type inference: numpy-like promotion over IR expressions.

Implicitly typed constants (Python ``int``/``float``) are *weak*: they adapt to the other
operand (``2 * x`` with float32 ``x`` is float32; ``0.5 * n`` with int32 ``n`` is float64).  A
lone weak int is int32 (int64 if it does not fit), a lone weak float is float64.  numpy scalars
in the tree are strong and keep their type.  Comparisons and logic give bool; math IR functions
take and return floats (integers become float64), except abs/min/max and the rounding
functions, which keep integers integer.  Reductions have the type of their body.

Complex values (complex64/complex128) promote as in numpy (a weak float or int takes the
complex type; a Python complex with float32 gives complex64); ``abs``, ``real`` and ``imag`` of
a complex value have its part type, ``conj`` keeps it, ``complex(x, y)`` is the complex type of
the promoted parts, and ``z**n`` with an integer n keeps the type of z.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pymbolic.primitives as p

from translator.diagnostics import KernelLanguageError
from translator.ir.data import ArrayArg, TemporaryVariable, ValueArg
from translator.ir.expr import (INT_RESULT_FUNCTIONS, Expression, IRWalkMapper, dependencies,
                                walk_nodes)
from translator.ir.isl_glue import params_of
from translator.ir import registrations
from translator.ir.kernel import Kernel
from translator.ir.statements import Assignment, CallInstruction, Statement
from translator.records import replace

INT32 = np.dtype(np.int32)
INT64 = np.dtype(np.int64)
FLOAT64 = np.dtype(np.float64)
BOOL = np.dtype(np.bool_)
COMPLEX64 = np.dtype(np.complex64)
COMPLEX128 = np.dtype(np.complex128)

_KEEP_INT_FUNCTIONS = frozenset({"abs", "min", "max", "floor", "ceil", "trunc", "round", "rem",
                                 "popcount"})
#: IR functions of complex values (translator.codegen.complex lowers them).
_COMPLEX_FUNCTIONS = frozenset({"real", "imag", "conj", "complex"})


class Typed(NamedTuple):
    """A dtype (None: not known yet) and whether it is weak (from a Python literal)."""

    dtype: np.dtype | None
    weak: bool = False


#: A type that depends on an untyped variable (absorbs everything in `promote`).
UNKNOWN = Typed(None)
#: No information yet (the identity of `promote`): untyped variables during inference.
BOTTOM = Typed(None, True)


def concrete(t: Typed) -> np.dtype | None:
    """The dtype a weak type takes when nothing else decides."""
    return t.dtype


def promote(a: Typed, b: Typed) -> Typed:
    """Binary promotion with weak literals adapting to the strong operand.

    `UNKNOWN` absorbs everything; `BOTTOM` (no information yet, used while inferring) is the
    identity."""
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if a.dtype is b.dtype and a.dtype is not None:
        # one dtype (numpy's builtin dtypes are single objects): itself, strong if one is
        return b if a.weak and not b.weak else a
    if a.dtype is None:
        return b
    if b.dtype is None:
        return a
    if a.weak and b.weak:
        return Typed(np.result_type(a.dtype, b.dtype), True)
    if a.weak or b.weak:
        weak, strong = (a, b) if a.weak else (b, a)
        return Typed(_adapt(weak.dtype, strong.dtype))
    return Typed(np.result_type(a.dtype, b.dtype))


def _adapt(weak: np.dtype, strong: np.dtype) -> np.dtype:
    """What a weak literal of kind `weak` combined with `strong` gives (NEP 50 style)."""
    if strong.kind == "c":
        return strong
    if weak.kind == "c":
        # a Python complex keeps a float32 operand's precision (complex64)
        return COMPLEX64 if strong.kind == "f" and strong.itemsize <= 4 else COMPLEX128
    if weak.kind == "f" and strong.kind != "f":
        return FLOAT64
    if weak.kind in "iu" and strong.kind == "b":
        return weak if weak.itemsize > INT32.itemsize else INT32
    if weak.kind in "iu" and strong.kind in "iu" and weak.itemsize > strong.itemsize:
        return np.result_type(weak, strong)
    return strong


def promote_all(types: list[Typed]) -> Typed:
    if not types:
        return UNKNOWN
    out = types[0]
    for t in types[1:]:
        out = promote(out, t)
    return out


def literal_type(value: object) -> Typed:
    """The type of a constant in the tree."""
    if isinstance(value, (bool, np.bool_)):
        return Typed(BOOL, not isinstance(value, np.bool_))
    if isinstance(value, np.generic):
        return Typed(value.dtype)
    if isinstance(value, int):
        return Typed(INT32, True) if -2**31 <= value < 2**31 else Typed(INT64, True)
    if isinstance(value, float):
        return Typed(FLOAT64, True)
    if isinstance(value, complex):
        return Typed(np.dtype(np.complex128), True)
    return UNKNOWN


# ---------------------------------------------------------------------------------------------
# the oracle: types of subexpressions, memoised

#: The oracle's method name of each expression class (``_map_sum``), built once per class.
_METHOD_NAMES: dict[type, str] = {}


class TypeOracle:
    """Types of the expressions of one kernel.  Results are memoised by object identity,
    so printing a statement asks for each node once."""

    def __init__(self, kernel: Kernel, assumed: dict[str, Typed] | None = None) -> None:
        self.kernel = kernel
        self.inames = kernel.all_inames
        #: While inferring: current guesses for untyped variables (absent: `BOTTOM`).
        self.assumed = assumed
        self._memo: dict[int, tuple[Expression, Typed]] = {}

    def variable(self, name: str) -> Typed:
        if name in self.inames:
            return Typed(INT32)
        v = self.kernel.variable(name)
        if v is None and self.kernel.options.extra:
            symbol = _registered("symbol_dtype", self.kernel, name)
            if symbol is not None:
                return Typed(symbol)
        if v is None or v.dtype is None:
            if self.assumed is None:
                return UNKNOWN
            return self.assumed.get(name, BOTTOM)
        return Typed(np.dtype(v.dtype))

    def typed(self, expr: Expression) -> Typed:
        key = id(expr)
        hit = self._memo.get(key)
        if hit is not None and hit[0] is expr:
            return hit[1]
        result = self._compute(expr)
        self._memo[key] = (expr, result)
        return result

    def dtype(self, expr: Expression) -> np.dtype | None:
        """The concrete dtype of `expr`, None if it depends on an unknown type."""
        hit = self._memo.get(id(expr))   # (`typed`, inlined: the printer asks per node)
        if hit is not None and hit[0] is expr:
            return concrete(hit[1])
        return concrete(self.typed(expr))

    __call__ = dtype

    def _compute(self, e: Expression) -> Typed:
        if not isinstance(e, p.ExpressionNode):
            return literal_type(e)
        name = _METHOD_NAMES.get(type(e))
        if name is None:
            name = _METHOD_NAMES[type(e)] = "_" + e.mapper_method
        method = getattr(self, name, None)
        if method is None:
            for cls in type(e).__mro__[1:]:
                method = getattr(self, "_" + getattr(cls, "mapper_method", ""), None)
                if method is not None:
                    break
        if method is None:
            raise KernelLanguageError(f"cannot type expression node {type(e).__name__}: {e}")
        return method(e)

    # -- node kinds -----------------------------------------------------------------------

    def _map_variable(self, e: p.Variable) -> Typed:
        return self.variable(e.name)

    def _map_subscript(self, e: p.Subscript) -> Typed:
        return self.typed(e.aggregate)

    def _map_linear_subscript(self, e) -> Typed:
        return self.typed(e.aggregate)

    def _map_sum(self, e) -> Typed:
        return promote_all([self.typed(c) for c in e.children])

    _map_product = _map_sum
    _map_min = _map_sum
    _map_max = _map_sum
    _map_bitwise_and = _map_sum
    _map_bitwise_or = _map_sum
    _map_bitwise_xor = _map_sum

    def _map_quotient(self, e) -> Typed:
        # Integer / integer truncates and stays integer (the IR's contract).
        return promote(self.typed(e.numerator), self.typed(e.denominator))

    _map_floor_div = _map_quotient
    _map_remainder = _map_quotient

    def _map_power(self, e: p.Power) -> Typed:
        base, exponent = self.typed(e.base), self.typed(e.exponent)
        if _kind(base) in ("c", "f") and _kind(exponent) in ("i", "u"):
            return base     # x**n and z**n keep the precision of x and z (Fortran, pown)
        return promote(base, exponent)

    def _map_left_shift(self, e) -> Typed:
        return self.typed(e.shiftee)

    _map_right_shift = _map_left_shift

    def _map_bitwise_not(self, e) -> Typed:
        return self.typed(e.child)

    def _map_comparison(self, e) -> Typed:
        return Typed(BOOL)

    _map_logical_and = _map_comparison
    _map_logical_or = _map_comparison
    _map_logical_not = _map_comparison

    def _map_if(self, e: p.If) -> Typed:
        return promote(self.typed(e.then), self.typed(e.else_))

    def _map_type_cast(self, e) -> Typed:
        return Typed(np.dtype(e.dtype))

    def _map_reduction(self, e) -> Typed:
        return self.typed(e.expr)

    def _map_tagged_variable(self, e) -> Typed:
        return self.variable(e.name)

    def _map_call(self, e: p.Call) -> Typed:
        name = getattr(e.function, "name", None)
        if self.kernel.options.extra:
            declared = _registered("function_result_dtype", self.kernel, name)
            if declared is not None:
                return Typed(declared)
        if name in INT_RESULT_FUNCTIONS:
            return Typed(np.dtype(np.int32))
        if name == "ldexp" and e.parameters:   # ldexp(x, n): the type of x
            e = p.Call(e.function, e.parameters[:1])
        args = promote_all([self.typed(a) for a in e.parameters])
        if args.dtype is None:
            return args
        if name in _COMPLEX_FUNCTIONS or args.dtype.kind == "c":
            return _complex_call_type(name, args)
        if name in _KEEP_INT_FUNCTIONS or args.dtype.kind == "f":
            return args
        if args.dtype.kind == "c":
            return args
        # Float-in, float-out: integers (and bools) become float64.
        return Typed(FLOAT64, args.weak)


def _kind(t: Typed) -> str | None:
    return None if t.dtype is None else t.dtype.kind


def _complex_call_type(name: str | None, args: Typed) -> Typed:
    """Types of the complex IR functions (``real``, ``imag``, ``conj``, ``complex``) and of
    math functions of complex arguments: ``abs``, ``real`` and ``imag`` of a complex value
    are its part type, ``complex(x, y)`` is complex of the promoted part type."""
    dt = args.dtype
    if name == "complex":
        if dt.kind == "c":
            return args
        return Typed(COMPLEX64 if dt.kind == "f" and dt.itemsize <= 4 else COMPLEX128,
                     args.weak)
    if dt.kind != "c":
        return args     # real(x), imag(x) and conj(x) of a real x have the type of x
    if name in ("real", "imag", "abs"):
        return Typed(np.dtype(np.float32) if dt == COMPLEX64 else FLOAT64, args.weak)
    return args


def _registered(query: str, kernel: Kernel, name: str | None) -> np.dtype | None:
    """The dtype of a registered user function or symbol (kept in ``Options.extra``:
    `translator.ir.registrations`)."""
    return None if name is None else getattr(registrations, query)(kernel, name)


def expression_dtype(kernel: Kernel, expr: Expression) -> np.dtype:
    """The dtype of `expr` in `kernel`; raises `KernelLanguageError` if a type is unknown."""
    dt = TypeOracle(kernel).dtype(expr)
    if dt is None:
        names = sorted(n for n in _free_names(expr) if TypeOracle(kernel).variable(n).dtype is None)
        raise KernelLanguageError(
            f"cannot determine the type of {expr}: unknown type of {', '.join(names) or '?'}")
    return dt


# ---------------------------------------------------------------------------------------------
# inference over a kernel

def infer_unknown_types(kernel: Kernel, expect_completion: bool = False) -> Kernel:
    """Give every untyped temporary, argument and value argument a dtype where it can be found.

    Written variables get the promoted type of everything assigned to them.  This is a fixed
    point from below: untyped variables start with no information (``acc = acc + x[i]`` after
    ``acc = 0`` makes acc the type of x), and each round joins their writers' types.  Value
    arguments used only as integers (domain parameters, subscripts, shapes) default to int32.
    With `expect_completion`, a `KernelLanguageError` names every variable still untyped.
    """
    assumed = _fixed_point(kernel)
    updates = {n: np.dtype(t.dtype) for n, t in assumed.items() if t.dtype is not None}
    if updates:
        kernel = _with_dtypes(kernel, updates)
    kernel = _default_integer_values(kernel)
    if expect_completion:
        _check_complete(kernel)
    return kernel


def _fixed_point(kernel: Kernel) -> dict[str, Typed]:
    writers: dict[str, list[Expression]] = {}
    for stmt in kernel.statements:
        for name, rhs in _assigned(stmt):
            var = kernel.variable(name)
            if var is not None and var.dtype is None:
                writers.setdefault(name, []).append(rhs)
    assumed: dict[str, Typed] = {}
    for _ in range(len(writers) + 2):
        oracle = TypeOracle(kernel, assumed)
        new = {n: _strong(promote_all([oracle.typed(r) for r in rhss]))
               for n, rhss in writers.items()}
        new = {n: t for n, t in new.items() if t.dtype is not None}
        if new == assumed:
            break
        assumed = new
    return assumed


def _strong(t: Typed) -> Typed:
    """A variable holding a weak value has that value's default type, strongly."""
    return Typed(t.dtype) if t.dtype is not None else t


def _assigned(stmt: Statement) -> list[tuple[str, Expression]]:
    if isinstance(stmt, Assignment):
        return [(stmt.assignee_names()[0], stmt.expression)]
    if isinstance(stmt, CallInstruction) and len(stmt.assignees) == 1:
        return [(stmt.assignee_names()[0], stmt.expression)]
    return []


def _with_dtypes(kernel: Kernel, updates: dict[str, np.dtype]) -> Kernel:
    temps = kernel.temporaries
    for name, dt in updates.items():
        if name in temps:
            temps = temps.set(name, replace(temps[name], dtype=dt))
    args = tuple(replace(a, dtype=updates[a.name]) if a.name in updates and a.dtype is None
                 else a for a in kernel.args)
    return replace(kernel, temporaries=temps, args=args)


def _default_integer_values(kernel: Kernel) -> Kernel:
    """Untyped value arguments that are domain parameters, subscripts or shapes are int32."""
    if not any(a.dtype is None for a in kernel.value_args) and not any(
            t.dtype is None and not t.shape for t in kernel.temporaries.values()):
        return kernel   # nothing to type: skip the walk over every statement
    wanted = {a.name for a in kernel.value_args if a.dtype is None}
    wanted.update(n for n, t in kernel.temporaries.items() if t.dtype is None and not t.shape)
    integral = _integer_used_names(kernel, wanted)
    updates = {a.name: INT32 for a in kernel.value_args
               if a.dtype is None and a.name in integral}
    temps = {n: INT32 for n, t in kernel.temporaries.items()
             if t.dtype is None and not t.shape and n in integral}
    updates.update(temps)
    return _with_dtypes(kernel, updates) if updates else kernel


def _integer_used_names(kernel: Kernel, wanted: set[str] | None = None) -> set[str]:
    """Names used as integers: the domains' parameters, names in subscripts and shapes.
    Where every name of `wanted` is a domain parameter (``n`` in ``0 <= i < n``), the
    parameters alone: asked about `wanted` only, the walk over every statement could add
    nothing to the answer."""
    names: set[str] = set()
    for d in kernel.domains:
        names.update(params_of(d))
    if wanted is not None and wanted <= names:
        return names
    collector = _IndexNames(names)
    for stmt in kernel.statements:
        for expr in (*stmt.read_expressions(), *_assignee_exprs(stmt)):
            nodes = walk_nodes(expr)
            if nodes is None:
                collector(expr)
            else:
                for node in nodes:
                    collector.visit(node)
    for v in (*kernel.args, *kernel.temporaries.values()):
        for extent in getattr(v, "shape", None) or ():
            if extent is not None:
                names.update(_free_names(extent))
    return names


def _assignee_exprs(stmt: Statement) -> tuple[Expression, ...]:
    if isinstance(stmt, Assignment):
        return (stmt.assignee,)
    if isinstance(stmt, CallInstruction):
        return stmt.assignees
    return ()


class _IndexNames(IRWalkMapper):
    """Collects names used inside subscripts."""

    def __init__(self, out: set[str]) -> None:
        self.out = out

    def visit(self, expr, *args, **kwargs) -> bool:
        if isinstance(expr, p.Subscript):
            for idx in expr.index_tuple:
                self.out.update(_free_names(idx))
        elif getattr(expr, "mapper_method", "") == "map_linear_subscript":
            self.out.update(_free_names(expr.index))
        return True


def _free_names(expr: Expression) -> frozenset[str]:
    return dependencies(expr)


def _check_complete(kernel: Kernel) -> None:
    missing = [v.name for v in (*kernel.args, *kernel.temporaries.values())
               if v.dtype is None and _is_used(kernel, v)]
    if missing:
        raise KernelLanguageError(
            "cannot determine the type of " + ", ".join(repr(n) for n in sorted(missing))
            + ": give a dtype (e.g. with add_dtypes) or assign it from a typed value",
            kernel.span)


def _is_used(kernel: Kernel, var: ArrayArg | ValueArg | TemporaryVariable) -> bool:
    """Arguments always need a type; temporaries only when some statement mentions them."""
    if not isinstance(var, TemporaryVariable):
        return True
    for stmt in kernel.statements:
        if var.name in stmt.assignee_names():
            return True
        if any(var.name in _free_names(e) for e in stmt.read_expressions()):
            return True
    return False


def add_known_dtypes(kernel: Kernel, dtypes: dict) -> Kernel:
    """Set the dtype of the named arguments that have none (others are left alone)."""
    if not dtypes:
        return kernel
    args = tuple(replace(a, dtype=np.dtype(dtypes[a.name]))
                 if a.name in dtypes and a.dtype is None else a for a in kernel.args)
    return kernel if args == kernel.args else kernel.copy(args=args)
