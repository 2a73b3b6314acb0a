"""`LazyPattern`: a regular expression compiled when it is first used.

A module-level ``re.compile`` runs at every start of the process whether or not the run ever
matches the pattern: ``re`` keeps no compiled pattern across processes.  A small translation
loads some 60 of the translator's patterns and uses about half; the others cost it 4 ms of
its 0.3 s (the kernel-language lexer alone 0.8 ms; bench/RESULTS.md, "Cold translate, third
round (h89)").  A pattern that only some inputs need (the kernel-language parser, data
regions, macros, ``--directives``) is written ``LazyPattern(source, flags)`` instead.

Each attribute (``match``, ``sub``, ``pattern``, ...) is the compiled pattern's, looked up on
first use and kept on the instance: a hot loop pays what it pays with the compiled pattern.
What a `LazyPattern` is not: an instance of ``re.Pattern``, so it cannot be handed to the
``re`` module's functions (``re.sub(PATTERN, ...)``): call its methods.
"""

from __future__ import annotations

import re


class LazyPattern:
    """``re.compile(source, flags)``, compiled on the first attribute read."""

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source = (source, flags)

    def __getattr__(self, name: str):
        # only names not yet on the instance come here; the private ones are never forwarded
        if name.startswith("_"):
            raise AttributeError(name)
        value = getattr(re.compile(*self._source), name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"LazyPattern({self._source[0]!r}, {self._source[1]!r})"
