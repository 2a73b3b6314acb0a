"""Room for deeply nested input: a translation runs on a thread with a large stack and a
raised recursion limit.

The parsers' trees (pycparser's, fparser2's) are walked recursively, by their own code and
by the frontends, once or more per nesting level: 100 nested parentheses in a Fortran
statement take fparser2 about 2,500 Python frames.  Long left-associative chains (sums of
thousands of terms) are flattened by the frontends and split in one pass for fparser2
(`frontends.fortran.chains`), so they need no depth; nesting does.

Bound (measured on the development VM): C expressions 6,000 parentheses deep translate;
10,000 deep end in "C source is nested too deeply to parse" (exit 1), not a crash: the stack
holds more frames than the limit allows.  Fortran nesting is bounded before parsing
(`frontends.fortran.source.MAX_PAREN_DEPTH`, 200), where fparser2's time is the limit.  The
stack is address space reserved for the thread; only the pages a deep input touches are
used (a 1 GB RLIMIT_AS still leaves room, see bench/fuzz_cli.py --shapes).
"""

from __future__ import annotations

import contextvars
import sys
import threading
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")

RECURSION_LIMIT = 60_000
STACK_BYTES = 512 << 20

_inside = threading.local()


def call_deep(fn: Callable[..., _T], *args: object) -> _T:
    """`fn(*args)` on a thread with room for `RECURSION_LIMIT` frames; its result, or its
    exception re-raised here.  Calls made from inside run directly."""
    if getattr(_inside, "active", False):
        return fn(*args)
    outcome: dict[str, object] = {}
    context = contextvars.copy_context()

    def body() -> None:
        _inside.active = True
        try:
            outcome["value"] = context.run(fn, *args)
        except BaseException as err:  # noqa: BLE001 - handed to the caller's thread
            outcome["error"] = err

    saved_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(saved_limit, RECURSION_LIMIT))
    saved_stack = threading.stack_size(STACK_BYTES)
    try:
        worker = threading.Thread(target=body, name="translate", daemon=True)
        worker.start()
    finally:
        threading.stack_size(saved_stack)
    try:
        while worker.is_alive():
            worker.join(0.5)
    finally:
        if not worker.is_alive():
            sys.setrecursionlimit(saved_limit)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]
