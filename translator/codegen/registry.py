"""Registered library routines: user functions, user reductions, preambles and symbols.

Storage.  What a kernel registers lives in `Kernel.options.extra`, as Python literals (tuples
of strings and booleans, sorted by name), so kernels stay immutable, hashable and printable,
and ``parse_kernel(print_kernel(k)) == k``::

    extra.user_functions       ((name, c_name, (arg dtype, ...), result dtype, definition), ...)
    extra.user_reductions      ((name, neutral, combine, associative, commutative), ...)
    extra.preambles            ((sort key, code), ...)
    extra.preamble_generators  (qualified name of a Python callable, ...)
    extra.symbols              ((name, dtype, C text), ...)

Only callables live in Python alone.  A preamble generator is recorded by its qualified name
and kept in this process's table (`register_preamble_generator`); a kernel printed, parsed back
in another process and compiled there needs the generator registered again, or code generation
says which one is missing.  Symbol-mangler callables are applied when they are registered and
their answers stored as literal symbols (`transforms.register_symbol_manglers`).

User reductions are also entered in the process-wide ``REDUCTION_OPS`` table: the kernel
language's parser accepts ``reduce(op, [i], e)`` only for known operations, so a reduction is
registered (`register_reduction_operation`, or the `register_reduction` transform) before text
that uses it is parsed.  Code generation prefers the kernel's own definition of an operation to
the process-wide one.

During `generate_code` a *session* (a context variable) knows the kernel's user functions: the
expression printer asks `print_user_call` for every call, and the header gets the definitions
of the functions that were actually called (`header_text`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from pymbolic import evaluate

from translator.analysis.reductions import combine as builtin_combine
from translator.analysis.reductions import neutral_element as builtin_neutral_element
from translator.codegen.cnames import c_type_name, safe_name
from translator.diagnostics import CodegenError, KernelLanguageError, TransformError
from translator.ir.expr import (REDUCTION_OPS, Expression, IRStringifier, dependencies,
                               substitute)
from translator.ir.kernel import Kernel
from translator.ir.parse_expr import parse_expression
# The storage in Options.extra is the IR's (type inference reads it); re-exported here.
from translator.ir.registrations import (FUNCTIONS_KEY, GENERATORS_KEY, PREAMBLES_KEY,
                                         REDUCTIONS_KEY, SYMBOLS_KEY, function_result_dtype,
                                         set_entries, symbol_dtype)
from translator.ir.registrations import entries as _entries
from translator.ir.registrations import with_entry as _with_entry

#: Reductions the engine defines itself (they cannot be redefined).
BUILTIN_REDUCTIONS = frozenset({"sum", "product", "max", "min"})
#: The operand names of a reduction's combine expression.
COMBINE_OPERANDS = ("a", "b")

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def check_identifier(name: Any, what: str) -> str:
    """`name` if it is a C identifier outside the reserved ``_tr_`` prefix."""
    if not isinstance(name, str) or not _IDENT.match(name):
        raise TransformError(f"{what} {name!r} is not an identifier")
    if name.startswith("_tr_"):
        raise TransformError(f"{what} {name!r}: names starting with _tr_ are reserved for "
                             "generated code")
    return name


def check_dtype(value: Any, what: str) -> np.dtype:
    """A numpy dtype the OpenCL target can declare."""
    try:
        dtype = np.dtype(value)
        c_type_name(dtype)
    except (TypeError, ValueError, CodegenError):
        raise TransformError(f"{what}: {value!r} is not a data type the OpenCL target "
                             "supports") from None
    return dtype


# ---------------------------------------------------------------------------------------------
# user functions

@dataclass(frozen=True, slots=True, kw_only=True)
class UserFunction:
    """``name(args)`` in statements, printed as ``c_name(args)`` with each argument converted
    to its declared type; `definition` (OpenCL C, may be empty for a built-in of the target)
    goes into the header of every kernel that calls it."""

    name: str
    c_name: str
    arg_dtypes: tuple[np.dtype, ...]
    result_dtype: np.dtype
    definition: str = ""

    def to_literal(self) -> tuple:
        return (self.name, self.c_name, tuple(d.name for d in self.arg_dtypes),
                self.result_dtype.name, self.definition)

    @classmethod
    def from_literal(cls, item: tuple) -> UserFunction:
        name, c_name, args, result, definition = item
        return cls(name=name, c_name=c_name, arg_dtypes=tuple(np.dtype(a) for a in args),
                   result_dtype=np.dtype(result), definition=definition)


def make_user_function(name: str, definition: str, arg_dtypes: Iterable[Any],
                       result_dtype: Any, c_name: str | None = None) -> UserFunction:
    """A checked `UserFunction` (`TransformError` for a bad argument)."""
    check_identifier(name, "function name")
    c_name = check_identifier(c_name or name, "C name")
    if not isinstance(definition, str):
        raise TransformError(f"function {name!r}: the definition must be OpenCL C text")
    if definition and not re.search(rf"\b{re.escape(c_name)}\s*\(", definition):
        raise TransformError(f"function {name!r}: the definition does not define "
                             f"{c_name}(...)")
    if isinstance(arg_dtypes, (str, np.dtype, type)):
        raise TransformError(f"function {name!r}: arg_dtypes must be a list of data types")
    args = tuple(check_dtype(d, f"function {name!r}, argument type") for d in arg_dtypes)
    result = check_dtype(result_dtype, f"function {name!r}, result type")
    return UserFunction(name=name, c_name=c_name, arg_dtypes=args, result_dtype=result,
                        definition=definition)


def functions(kernel: Kernel) -> dict[str, UserFunction]:
    """The kernel's registered functions by name."""
    return {item[0]: UserFunction.from_literal(item) for item in _entries(kernel, FUNCTIONS_KEY)}


def with_function(kernel: Kernel, fn: UserFunction) -> Kernel:
    """`kernel` with `fn` registered (replacing a function of the same name)."""
    return _with_entry(kernel, FUNCTIONS_KEY, fn.to_literal())


# ---------------------------------------------------------------------------------------------
# user reductions

@dataclass(frozen=True, slots=True, kw_only=True)
class UserReduction:
    """``reduce(name, [i], e)``: start from `neutral`, fold terms with `combine`, an
    expression in the operands ``a`` (the value so far) and ``b`` (the next term).

    Sequential reductions keep the loop's order, so any combine works there.  A reduction across
    work items (a tree in local memory) regroups and reorders the terms: it needs `associative`
    and `commutative` to be true."""

    name: str
    neutral: str
    combine: str
    associative: bool = True
    commutative: bool = True

    @property
    def parallel(self) -> bool:
        return self.associative and self.commutative

    def to_literal(self) -> tuple:
        return (self.name, self.neutral, self.combine, self.associative, self.commutative)

    @classmethod
    def from_literal(cls, item: tuple) -> UserReduction:
        name, neutral, combine, associative, commutative = item
        return cls(name=name, neutral=neutral, combine=combine, associative=associative,
                   commutative=commutative)

    def neutral_element(self, dtype: np.dtype) -> Expression:
        """The neutral element as a constant of `dtype`."""
        value = evaluate(_parse(self.neutral, f"reduction {self.name!r}"), {})
        dt = np.dtype(dtype)
        try:
            with np.errstate(all="raise"):
                typed = dt.type(value)
        except (OverflowError, ValueError, TypeError, FloatingPointError):
            raise CodegenError(f"reduction {self.name!r}: neutral element {self.neutral} has "
                               f"no value of type {dt.name}") from None
        return typed

    def combine_template(self) -> Expression:
        """The combine expression, in the operands ``a`` and ``b``."""
        return _parse(self.combine, f"reduction {self.name!r}")

    def combine_expr(self, left: Expression, right: Expression) -> Expression:
        """The combine expression with ``a`` := `left` and ``b`` := `right`."""
        return substitute(self.combine_template(), dict(zip(COMBINE_OPERANDS, (left, right))))


def make_user_reduction(name: str, neutral: Any, combine: str, *, associative: bool = True,
                        commutative: bool = True) -> UserReduction:
    """A checked `UserReduction`; `neutral` is a number or kernel-language constant text,
    `combine` kernel-language text in ``a`` and ``b``."""
    check_identifier(name, "reduction name")
    if name in BUILTIN_REDUCTIONS or name in ("reduce", "simul_reduce"):
        raise TransformError(f"reduction {name!r} is built in and cannot be redefined")
    what = f"reduction {name!r}"
    neutral_expr = _parse(str(neutral), what) if isinstance(neutral, str) else neutral
    try:
        value = evaluate(neutral_expr, {})
        if not isinstance(value, (int, float, bool, np.number, np.bool_)):
            raise TypeError
    except Exception:
        raise TransformError(f"{what}: the neutral element {neutral!r} is not a real "
                             "constant") from None
    if not isinstance(combine, str):
        raise TransformError(f"{what}: combine must be expression text in a and b, such as "
                             "'a + b'")
    combine_expr = _parse(combine, what)
    stray = sorted(dependencies(combine_expr) - set(COMBINE_OPERANDS))
    if stray:
        raise TransformError(f"{what}: combine {combine!r} may use only the operands a and b, "
                             f"not {', '.join(stray)}")
    text = IRStringifier()
    return UserReduction(name=name, neutral=text(neutral_expr), combine=text(combine_expr),
                         associative=bool(associative), commutative=bool(commutative))


def _parse(text: str, what: str) -> Expression:
    try:
        return parse_expression(text)
    except KernelLanguageError as e:
        raise TransformError(f"{what}: {e.message}") from None


#: Reductions registered for the whole process (`register_reduction_operation`).
_PROCESS_REDUCTIONS: dict[str, UserReduction] = {}


def register_reduction_operation(name: str, neutral: Any, combine: str, *,
                                 associative: bool = True,
                                 commutative: bool = True) -> UserReduction:
    """Register a reduction for this process: the kernel language then accepts
    ``reduce(name, [i], e)``, and kernels that do not define `name` themselves use this
    definition.  A later registration of the same name replaces it.  Example::

        register_reduction_operation("bxor", 0, "a ^ b")
        make_kernel("{[i]: 0<=i<n}", "h[0] = reduce(bxor, [i], a[i])")
    """
    red = make_user_reduction(name, neutral, combine, associative=associative,
                              commutative=commutative)
    announce_reduction(red)
    return red


def announce_reduction(red: UserReduction) -> None:
    """Make the parser accept `red`'s name and record it as this process's definition."""
    _PROCESS_REDUCTIONS[red.name] = red
    REDUCTION_OPS[red.name] = {"neutral": red.neutral, "combine": red.combine, "user": True}


def reductions(kernel: Kernel) -> dict[str, UserReduction]:
    """The kernel's own registered reductions by name."""
    return {item[0]: UserReduction.from_literal(item)
            for item in _entries(kernel, REDUCTIONS_KEY)}


def with_reduction(kernel: Kernel, red: UserReduction) -> Kernel:
    return _with_entry(kernel, REDUCTIONS_KEY, red.to_literal())


def reduction_definition(kernel: Kernel, operation: str) -> UserReduction | None:
    """The user reduction `operation` (the kernel's, else the process's); None for built-ins
    and unknown names."""
    if operation in BUILTIN_REDUCTIONS:
        return None
    own = reductions(kernel).get(operation)
    return own if own is not None else _PROCESS_REDUCTIONS.get(operation)


# ---------------------------------------------------------------------------------------------
# preambles and symbols

#: Preamble generator callables of this process, by qualified name.
_GENERATORS: dict[str, Callable[..., Any]] = {}


@dataclass(frozen=True, slots=True, kw_only=True)
class PreambleInfo:
    """What a preamble generator is told about the code being generated."""

    kernel: Kernel
    #: dtypes of the kernel's arguments and temporaries.
    seen_dtypes: frozenset[np.dtype]
    #: Names of the functions the generated code calls (IR functions and user functions).
    seen_functions: frozenset[str]
    target: str = "opencl"


def register_preamble_generator(fn: Callable[[PreambleInfo], Iterable[tuple[str, str]]]
                                ) -> str:
    """Keep `fn` in this process's table; returns the name kernels record it by."""
    if not callable(fn):
        raise TransformError(f"preamble generator {fn!r} is not callable")
    name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"
    _GENERATORS[name] = fn
    return name


def preambles(kernel: Kernel) -> tuple[tuple[str, str], ...]:
    return tuple(_entries(kernel, PREAMBLES_KEY))


def generator_names(kernel: Kernel) -> tuple[str, ...]:
    return tuple(_entries(kernel, GENERATORS_KEY))


@dataclass(frozen=True, slots=True, kw_only=True)
class Symbol:
    """A name the statements use that is neither argument nor temporary: its type and the
    OpenCL C text it stands for (``pi`` -> float64 ``M_PI``)."""

    name: str
    dtype: np.dtype
    c_text: str

    def to_literal(self) -> tuple:
        return (self.name, self.dtype.name, self.c_text)


def symbols(kernel: Kernel) -> dict[str, Symbol]:
    return {name: Symbol(name=name, dtype=np.dtype(dt), c_text=text)
            for name, dt, text in _entries(kernel, SYMBOLS_KEY)}


# ---------------------------------------------------------------------------------------------
# the code-generation session

@dataclass
class _Session:
    kernel: Kernel
    functions: dict[str, UserFunction]
    used: set[str] = field(default_factory=set)
    called: set[str] = field(default_factory=set)


_SESSION: ContextVar[_Session | None] = ContextVar("translator_registry_session", default=None)


@contextmanager
def generation(kernel: Kernel) -> Iterator[None]:
    """While generating code for `kernel`: its user functions are printable."""
    token = _SESSION.set(_Session(kernel=kernel, functions=functions(kernel)))
    try:
        yield
    finally:
        _SESSION.reset(token)


def print_user_call(printer: Any, name: str, args: tuple[Expression, ...],
                    prec: int) -> str | None:
    """C text of a call of user function `name`, or None when `name` is no user function
    of the kernel being generated (the caller then prints an IR function)."""
    session = _SESSION.get()
    if session is None:
        return None
    session.called.add(name)
    fn = session.functions.get(name)
    if fn is None:
        return None
    if len(args) != len(fn.arg_dtypes):
        raise CodegenError(f"function {name!r} takes {len(fn.arg_dtypes)} argument(s), got "
                           f"{len(args)}")
    session.used.add(name)
    texts = [printer.in_ctx(dt, printer._as(dt, a), 0) for dt, a in zip(fn.arg_dtypes, args)]
    return f"{fn.c_name}({', '.join(texts)})"


def needs_fp64(kernel: Kernel) -> bool:
    """Whether the called user functions or the used symbols involve float64."""
    f64 = np.dtype(np.float64)
    session = _SESSION.get()
    used = [] if session is None else [session.functions[n] for n in sorted(session.used)]
    if any(f64 in (*fn.arg_dtypes, fn.result_dtype) for fn in used):
        return True
    return any(s.dtype == f64 for s in _used_symbols(kernel))


def header_text(kernel: Kernel) -> str:
    """Preambles (static and generated, by sort key), symbol macros and the definitions of
    the user functions the body called, for the top of the device code."""
    session = _SESSION.get()
    out = [code.rstrip("\n") + "\n\n" for _, code in _all_preambles(kernel, session)]
    # The printer writes a symbol's name (made safe); a macro makes that name its C text.
    defines = [f"#define {safe_name(s.name)} ({s.c_text})\n" for s in _used_symbols(kernel)
               if s.c_text != safe_name(s.name)]
    if defines:
        out.append("".join(defines) + "\n")
    seen: set[str] = set()
    for name in sorted(session.used if session else ()):
        text = session.functions[name].definition.strip("\n")
        if text and text not in seen:
            seen.add(text)
            out.append(text + "\n\n")
    return "".join(out)


def _used_symbols(kernel: Kernel) -> list[Symbol]:
    table = symbols(kernel)
    if not table:
        return []
    names: set[str] = set()
    for stmt in kernel.statements:
        for expr in stmt.read_expressions():
            names |= dependencies(expr)
    return [table[n] for n in sorted(names & set(table))]


def _all_preambles(kernel: Kernel, session: _Session | None) -> list[tuple[str, str]]:
    found: dict[str, str] = {}
    for key, code in preambles(kernel):
        _add_preamble(found, key, code, "the kernel's preambles")
    gens = generator_names(kernel)
    if gens:
        info = _preamble_info(kernel, session)
        for name in gens:
            for key, code in _run_generator(name, info):
                _add_preamble(found, key, code, f"preamble generator {name}")
    return sorted(found.items())


def _preamble_info(kernel: Kernel, session: _Session | None) -> PreambleInfo:
    dtypes = {np.dtype(v.dtype) for v in (*kernel.args, *kernel.temporaries.values())
              if v.dtype is not None}
    called = frozenset(session.called) if session else frozenset()
    return PreambleInfo(kernel=kernel, seen_dtypes=frozenset(dtypes), seen_functions=called)


def _run_generator(name: str, info: PreambleInfo) -> list[tuple[str, str]]:
    fn = _GENERATORS.get(name)
    if fn is None:
        raise CodegenError(f"preamble generator {name!r} is not registered in this process "
                           "(generators are Python callables: register them again with "
                           "register_preamble_generators after parsing a printed kernel)",
                           info.kernel.span)
    try:
        items = list(fn(info) or ())
    except Exception as e:  # user code: report it, never a bare traceback
        raise CodegenError(f"preamble generator {name!r} failed: {type(e).__name__}: {e}",
                           info.kernel.span) from None
    for item in items:
        if not (isinstance(item, tuple) and len(item) == 2
                and all(isinstance(x, str) for x in item)):
            raise CodegenError(f"preamble generator {name!r} produced {item!r}; expected "
                               "(sort key, code) string pairs", info.kernel.span)
    return items


def _add_preamble(found: dict[str, str], key: str, code: str, where: str) -> None:
    if key in found and found[key] != code:
        raise CodegenError(f"preamble {key!r} from {where} differs from another preamble "
                           "with the same key")
    found[key] = code


# ---------------------------------------------------------------------------------------------
# reductions for the lowering passes

def neutral_element(kernel: Kernel, operation: str, dtype: np.dtype) -> Expression:
    """The neutral element of built-in or user reduction `operation`, typed `dtype`."""
    user = reduction_definition(kernel, operation)
    if user is not None:
        return user.neutral_element(dtype)
    return builtin_neutral_element(operation, dtype)


def combine(kernel: Kernel, operation: str, left: Expression, right: Expression) -> Expression:
    """``left OP right`` for built-in or user reduction `operation`."""
    user = reduction_definition(kernel, operation)
    if user is not None:
        return user.combine_expr(left, right)
    return builtin_combine(operation, left, right)


__all__ = ["PreambleInfo", "Symbol", "UserFunction", "UserReduction", "combine", "functions",
           "generation", "header_text", "make_user_function", "make_user_reduction",
           "needs_fp64", "neutral_element", "print_user_call", "reduction_definition",
           "reductions", "register_preamble_generator", "register_reduction_operation",
           "symbol_dtype", "symbols", "with_function", "with_reduction"]
