"""Registered library routines in code generation: user functions, preambles and symbols.

What a kernel registers, and how it is stored, is the IR's (`translator.ir.registrations`;
user reductions `translator.ir.reduction_ops`).  This module uses it while generating code.

During `generate_code` a *session* (a context variable) knows the kernel's user functions: the
expression printer asks `print_user_call` for every call, and the header gets the definitions
of the functions that were actually called (`header_text`), the preambles (static and from the
generators, which are told a `PreambleInfo`) and the symbols' macros.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import field
from typing import Any

import numpy as np

from translator.codegen.cnames import safe_name
from translator.diagnostics import CodegenError
from translator.ir.expr import Expression, dependencies
from translator.ir.kernel import Kernel
from translator.ir.reduction_ops import combine as _combine
from translator.ir.reduction_ops import neutral_element as _neutral_element
# the lowering passes ask this module about reductions (parallel_reductions.py)
from translator.ir.reduction_ops import reduction_definition
from translator.ir.registrations import (Symbol, UserFunction, functions, generator_names,
                                         preamble_generator, preambles, symbols)
from translator.records import dataclass

# ---------------------------------------------------------------------------------------------
# what a preamble generator is told

@dataclass(frozen=True, slots=True, kw_only=True)
class PreambleInfo:
    """What a preamble generator is told about the code being generated."""

    kernel: Kernel
    #: dtypes of the kernel's arguments and temporaries.
    seen_dtypes: frozenset[np.dtype]
    #: Names of the functions the generated code calls (IR functions and user functions).
    seen_functions: frozenset[str]
    target: str = "opencl"


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
    fn = preamble_generator(name)
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
    return _neutral_element(operation, dtype, kernel)


def combine(kernel: Kernel, operation: str, left: Expression, right: Expression) -> Expression:
    """``left OP right`` for built-in or user reduction `operation`."""
    return _combine(operation, left, right, kernel)


__all__ = ["PreambleInfo", "combine", "generation", "header_text", "needs_fp64",
           "neutral_element", "print_user_call", "reduction_definition"]
