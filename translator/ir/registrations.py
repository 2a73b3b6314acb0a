"""Where a kernel keeps the library routines registered with it, and what type inference asks
of them.

Registrations (user functions, user reductions, preambles, preamble generators, symbols) live in
`Kernel.options.extra` under the keys below, as Python literals sorted by their first field,
so a kernel with registrations stays immutable, hashable and printable.  This module is the
storage layer only; `translator.codegen.registry` builds on it (checking, code-generation
sessions, headers).  It lives in the IR because type inference (`translator.ir.types`) needs the
declared types of user functions and symbols, and the IR imports nothing from code generation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import numpy as np

from translator.ir.kernel import Kernel

FUNCTIONS_KEY = "user_functions"
REDUCTIONS_KEY = "user_reductions"
PREAMBLES_KEY = "preambles"
GENERATORS_KEY = "preamble_generators"
SYMBOLS_KEY = "symbols"


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
