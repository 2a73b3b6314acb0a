"""Where a C statement ends in the text: braces, parentheses, ``if``/``else``, ``do``/``while``,
comments, strings and character constants (the statement after an OpenMP/OpenACC directive
has no end directive; the rewrite replaces exactly the directive and its statement)."""

from __future__ import annotations

import re

from translator.diagnostics import FrontendError, SourceSpan

_IDENT = re.compile(r"[A-Za-z_]\w*")


def line_of(text: str, offset: int) -> int:
    """The 1-based line holding `offset`."""
    return text.count("\n", 0, offset) + 1


def first_word(text: str, k: int) -> tuple[str, int]:
    """The identifier starting the code at or after `k` (comments skipped), and its offset."""
    k = _skip(text, k)
    m = _IDENT.match(text, k)
    return (m.group() if m else ""), k


def statement_end(text: str, k: int, span: SourceSpan, what: str) -> int:
    """The offset just past the C statement starting at `k`."""
    k = _skip(text, k)
    if k >= len(text):
        raise FrontendError(f"{what}: the file ends inside the loop", span)
    if text[k] == "{":
        return _matching(text, k, span, what) + 1
    m = _IDENT.match(text, k)
    word = m.group() if m else ""
    if word in ("for", "while", "switch"):
        k = _matching(text, _skip(text, m.end()), span, what) + 1
        return statement_end(text, k, span, what)
    if word == "if":
        k = _matching(text, _skip(text, m.end()), span, what) + 1
        k = statement_end(text, k, span, what)
        after = _skip(text, k)
        e = _IDENT.match(text, after)
        return statement_end(text, e.end(), span, what) if e and e.group() == "else" else k
    if word == "do":
        k = statement_end(text, m.end(), span, what)
    return _semicolon(text, k, span, what) + 1


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


def _matching(text: str, k: int, span: SourceSpan, what: str) -> int:
    """The offset of the bracket closing the one at `k`."""
    depth = 0
    for pos, ch in _tokens(text, k):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
            if depth == 0:
                return pos
    raise FrontendError(f"{what}: unbalanced brackets in the loop after it", span)


def _semicolon(text: str, k: int, span: SourceSpan, what: str) -> int:
    depth = 0
    for pos, ch in _tokens(text, k):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif ch == ";" and depth == 0:
            return pos
    raise FrontendError(f"{what}: no ';' ends the statement after it", span)
