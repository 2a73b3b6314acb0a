"""Where a kernel keeps the library routines registered with it, and what type inference asks
of them.

Registrations (user functions, user reductions, preambles, preamble generators, symbols) live in
`Kernel.options.extra` under the keys below, as Python literals sorted by their first field,
so a kernel with registrations stays immutable, hashable and printable.  This module is the
home of what is registered: user functions (`UserFunction`), preambles and their generators,
symbols; user reductions are `translator.ir.reduction_ops`'.  `translator.codegen.registry`
builds on it (code-generation sessions, headers); `transforms.registering` registers.  It lives
in the IR because type inference (`translator.ir.types`) needs the declared types of user
functions and symbols, and the IR imports nothing from code generation.

Only callables live in Python alone.  A preamble generator is recorded by its qualified name
and kept in this process's table (`register_preamble_generator`); a kernel printed, parsed back
in another process and compiled there needs the generator registered again, or code generation
says which one is missing.  Symbol-mangler callables are applied when they are registered and
their answers stored as literal symbols (`transforms.register_symbol_manglers`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import numpy as np

from translator.diagnostics import TransformError
from translator.ir.kernel import Kernel
from translator.ir.parse_expr import SCALAR_TYPE_NAMES
from translator.patterns import LazyPattern
from translator.records import dataclass

FUNCTIONS_KEY = "user_functions"
REDUCTIONS_KEY = "user_reductions"
PREAMBLES_KEY = "preambles"
GENERATORS_KEY = "preamble_generators"
SYMBOLS_KEY = "symbols"

_IDENT = LazyPattern(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def check_identifier(name: Any, what: str) -> str:
    """`name` if it is a C identifier outside the reserved ``_tr_`` prefix."""
    if not isinstance(name, str) or not _IDENT.match(name):
        raise TransformError(f"{what} {name!r} is not an identifier")
    if name.startswith("_tr_"):
        raise TransformError(f"{what} {name!r}: names starting with _tr_ are reserved for "
                             "generated code")
    return name


def check_dtype(value: Any, what: str) -> np.dtype:
    """`value` as a numpy dtype the OpenCL target can declare (a scalar type of the kernel
    language, `SCALAR_TYPE_NAMES`)."""
    try:
        dtype = np.dtype(value)
    except (TypeError, ValueError):
        dtype = None
    if dtype is None or dtype.name not in SCALAR_TYPE_NAMES:
        raise TransformError(f"{what}: {value!r} is not a data type the OpenCL target "
                             "supports")
    return dtype


def entries(kernel: Kernel, key: str) -> tuple:
    """The items stored under extra `key` (empty when there are none)."""
    return tuple(kernel.options.extra.get(key, ()))


def set_entries(kernel: Kernel, key: str, items: Iterable) -> Kernel:
    """`kernel` with extra `key` holding `items`, sorted by their first field (the kernel
    itself when nothing changed; the key is dropped when empty)."""
    items = tuple(sorted(set(items), key=lambda it: it if isinstance(it, str) else it[0]))
    if items == entries(kernel, key):
        return kernel
    extra = kernel.options.extra
    extra = extra.set(key, items) if items else extra.delete(key)
    return kernel.copy(options=replace(kernel.options, extra=extra))


def with_entry(kernel: Kernel, key: str, item: tuple) -> Kernel:
    """`kernel` with `item` stored under `key`, replacing an item of the same name."""
    kept = [it for it in entries(kernel, key) if it[0] != item[0]]
    return set_entries(kernel, key, [*kept, item])


def function_result_dtype(kernel: Kernel, name: str) -> np.dtype | None:
    """The declared result type of user function `name` of `kernel` (None if not one)."""
    for item in entries(kernel, FUNCTIONS_KEY):
        if item[0] == name:
            return np.dtype(item[3])
    return None


def symbol_dtype(kernel: Kernel, name: str) -> np.dtype | None:
    """The dtype of registered symbol `name` (None if it is not one)."""
    for item in entries(kernel, SYMBOLS_KEY):
        if item[0] == name:
            return np.dtype(item[1])
    return None


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
    return {item[0]: UserFunction.from_literal(item) for item in entries(kernel, FUNCTIONS_KEY)}


def with_function(kernel: Kernel, fn: UserFunction) -> Kernel:
    """`kernel` with `fn` registered (replacing a function of the same name)."""
    return with_entry(kernel, FUNCTIONS_KEY, fn.to_literal())


# ---------------------------------------------------------------------------------------------
# preambles and symbols

#: Preamble generator callables of this process, by qualified name.
_GENERATORS: dict[str, Callable[..., Any]] = {}


def register_preamble_generator(fn: Callable[..., Iterable[tuple[str, str]]]) -> str:
    """Keep `fn` in this process's table; returns the name kernels record it by.  Code
    generation calls it with a `translator.codegen.registry.PreambleInfo`."""
    if not callable(fn):
        raise TransformError(f"preamble generator {fn!r} is not callable")
    name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"
    _GENERATORS[name] = fn
    return name


def preambles(kernel: Kernel) -> tuple[tuple[str, str], ...]:
    return tuple(entries(kernel, PREAMBLES_KEY))


def generator_names(kernel: Kernel) -> tuple[str, ...]:
    return tuple(entries(kernel, GENERATORS_KEY))


def preamble_generator(name: str) -> Callable[..., Any] | None:
    """The generator this process registered under `name` (None: not in this process)."""
    return _GENERATORS.get(name)


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
            for name, dt, text in entries(kernel, SYMBOLS_KEY)}
