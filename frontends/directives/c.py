"""OpenMP/OpenACC directives in C: ``#pragma omp`` / ``#pragma acc`` lines and the text span of
the loop that follows a loop directive.

The directive lines are read from the original text (continuations with a trailing
backslash), as ``#pragma translate`` lines are (`frontends.c.regions.scan_directives`).  The
statement after a loop directive is delimited in the text by `statement_end` (braces,
parentheses, ``if``/``else``, ``do``/``while``), skipping comments, strings and character
constants, so the rewrite replaces exactly the directive and its loop.
"""

from __future__ import annotations

import re
from typing import Any

from frontends.c.preprocess import SourceText
from frontends.c.regions import RawDirective, scan_directives
from translator.diagnostics import FrontendError

_SENTINELS = {"openmp": "omp", "openacc": "acc"}
_IDENT = re.compile(r"[A-Za-z_]\w*")


def read_claims(src: SourceText, models: tuple[str, ...], parsers: dict[str, Any]
                ) -> dict[int, tuple[RawDirective, Any]]:
    """line -> (directive, claim) for every directive of the requested models."""
    out = {}
    for model in models:
        if model not in _SENTINELS:
            continue
        for line, raw in scan_directives(src, _SENTINELS[model]).items():
            out[line] = (raw, parsers[model](raw.text, raw.span, "c"))
    if "openacc" in models:   # OpenACC constructs depend on what follows them (h16)
        from frontends.directives.openacc import resolve_constructs
        lines = sorted(out)
        claims = resolve_constructs([(k, out[k][0].last_line, out[k][1]) for k in lines],
                                    src.lines, "c")
        out = {k: (out[k][0], c) for k, c in zip(lines, claims)}
    return out


def spelled(claim: Any) -> str:
    sentinel = "#pragma omp" if claim.model == "openmp" else "#pragma acc"
    return f"'{sentinel} {getattr(claim, 'name', 'parallel')}'"


def loop_end(src: SourceText, raw: RawDirective, what: str) -> RawDirective:
    """A pseudo end directive for the loop after `raw`: its last line, whole (the rewrite
    replaces through the end of that line)."""
    text = src.text
    start = _skip(text, raw.end)
    if _IDENT.match(text, start) is None or _IDENT.match(text, start).group() != "for":
        raise FrontendError(f"{what} must be followed by a for loop", raw.span)
    end = statement_end(text, start, raw, what)
    line = text.count("\n", 0, end - 1) + 1
    rest = text[end:src.line_offset(line + 1)] if line < len(src.lines) else text[end:]
    if rest.strip() and not rest.strip().startswith(("//", "/*")):
        raise FrontendError(f"{what}: the loop ends in the middle of line {line}; put the code "
                            "after it on a line of its own", raw.span)
    nxt = src.line_offset(line + 1) if line < len(src.lines) else len(text)
    return RawDirective(line=line, last_line=line, start=src.line_offset(line), end=nxt,
                        indent="", text="", span=src.span(line))


def for_line(src: SourceText, raw: RawDirective) -> int:
    """The line of the ``for`` after the directive."""
    return src.text.count("\n", 0, _skip(src.text, raw.end)) + 1


def statement_end(text: str, k: int, raw: RawDirective, what: str) -> int:
    """The offset just past the C statement starting at `k`."""
    k = _skip(text, k)
    if k >= len(text):
        raise FrontendError(f"{what}: the file ends inside the loop", raw.span)
    if text[k] == "{":
        return _matching(text, k, raw, what) + 1
    m = _IDENT.match(text, k)
    word = m.group() if m else ""
    if word in ("for", "while", "switch"):
        k = _matching(text, _skip(text, m.end()), raw, what) + 1
        return statement_end(text, k, raw, what)
    if word == "if":
        k = _matching(text, _skip(text, m.end()), raw, what) + 1
        k = statement_end(text, k, raw, what)
        after = _skip(text, k)
        e = _IDENT.match(text, after)
        return statement_end(text, e.end(), raw, what) if e and e.group() == "else" else k
    if word == "do":
        k = statement_end(text, m.end(), raw, what)
    return _semicolon(text, k, raw, what) + 1


def _skip(text: str, k: int) -> int:
    """Past blanks and comments."""
    while k < len(text):
        if text[k].isspace():
            k += 1
        elif text.startswith("/*", k):
            k = text.find("*/", k + 2)
            k = len(text) if k < 0 else k + 2
        elif text.startswith("//", k):
            k = text.find("\n", k)
            k = len(text) if k < 0 else k + 1
        else:
            break
    return k


def _tokens(text: str, k: int):
    """(offset, character) of the code from `k`, comments and literals skipped."""
    while k < len(text):
        k = _skip(text, k)
        if k >= len(text):
            return
        ch = text[k]
        if ch in "\"'":
            end = k + 1
            while end < len(text) and text[end] != ch:
                end += 2 if text[end] == "\\" else 1
            k = end + 1
            continue
        yield k, ch
        k += 1


def _matching(text: str, k: int, raw: RawDirective, what: str) -> int:
    """The offset of the bracket closing the one at `k`."""
    depth = 0
    for pos, ch in _tokens(text, k):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth == 0:
                return pos
    raise FrontendError(f"{what}: unbalanced brackets in the loop after it", raw.span)


def _semicolon(text: str, k: int, raw: RawDirective, what: str) -> int:
    depth = 0
    for pos, ch in _tokens(text, k):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif ch == ";" and depth == 0:
            return pos
    raise FrontendError(f"{what}: no ';' ends the statement after it", raw.span)
