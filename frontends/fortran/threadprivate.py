"""The lists of ``!$omp threadprivate`` directives, read from the source lines (continued
lines joined).  Kept apart from `frontends.directives.fortran`, which uses it for a procedure's
own lists, because the Fortran frontend's scopes read a module's lists whenever they declare
it, with or without ``--directives`` (and the directives import the scopes)."""

from __future__ import annotations

import re

from frontends.fortran.source import SourceLines
from translator.patterns import LazyPattern

_THREADPRIVATE = LazyPattern(r"^[!cC*]\$omp\s+threadprivate\s*\((?P<names>[^)]*)\)", re.IGNORECASE)
_OMP_LINE = LazyPattern(r"^\s*[!cC*]\$omp(?P<cont>&|\s*&)?(?P<rest>.*)$", re.IGNORECASE)


def threadprivate_lists(lines: SourceLines, first: int, last: int) -> frozenset[str]:
    """The names (lower case; ``/blk/`` for a COMMON block) the ``!$omp threadprivate``
    directives of lines `first`..`last` list, continuation lines joined (free form: a
    trailing ``&``; fixed form: ``!$omp&`` / ``c$omp+`` in column 6 too)."""
    out: set[str] = set()
    number = first
    while number <= last:
        text = _directive_text(lines.line(number))
        number += 1
        if text is None or not text.lower().startswith("threadprivate"):
            continue
        while number <= last:
            nxt = _OMP_LINE.match(lines.line(number))
            fixed = re.match(r"^[!cC*]\$omp[^ 0]", lines.line(number), re.IGNORECASE)
            if nxt is None or not (text.endswith("&") or nxt.group("cont") or fixed):
                break
            rest = nxt.group("rest")
            rest = rest[1:] if fixed and not nxt.group("cont") else rest
            text = text.removesuffix("&") + " " + rest.split("!")[0].strip().lstrip("&")
            number += 1
        m = _THREADPRIVATE.match("!$omp " + text.removesuffix("&"))
        if m is not None:
            out.update(n.strip().lower().replace(" ", "") for n in m.group("names").split(","))
    return frozenset(n for n in out if n)


def _directive_text(line: str) -> str | None:
    """The text after the ``!$omp`` sentinel of a line that is not a continuation, with its
    trailing comment dropped; None for another line."""
    m = _OMP_LINE.match(line)
    if m is None or m.group("cont") or not m.group("rest")[:1].isspace():
        return None
    return m.group("rest").split("!")[0].strip()


__all__ = ["threadprivate_lists"]
