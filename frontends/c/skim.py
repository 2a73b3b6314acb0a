"""Function bodies the translation does not need, blanked before parsing.

pycparser takes about 0.1 ms per line of preprocessed C, and a large file's regions sit in a
few functions.  A function definition (signature and body) without a ``#pragma translate``
line is replaced by spaces (newlines and ``#`` lines kept, so every line number and line
marker stays where it was) before the preprocessed text is parsed: the frontend reads only
file-scope declarations and the functions holding regions.  When the text cannot be scanned with certainty, it is returned
unchanged; the caller parses the whole text again if the skimmed text does not parse.

A syntax error inside a blanked body is left to the C compiler, which sees the untouched file.
"""

from __future__ import annotations

import re

_PRAGMA = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+translate\b", re.M)


def blank_unneeded_bodies(text: str, pragmas: tuple[str, ...] = ("translate",)) -> str:
    """`text` with the definitions of functions without a translate pragma blanked out
    (`pragmas`: the pragma words that count, ``omp`` and ``acc`` with ``--directives``)."""
    pattern = _PRAGMA if pragmas == ("translate",) else re.compile(
        rf"^[ \t]*#[ \t]*pragma[ \t]+(?:{'|'.join(pragmas)})\b", re.M)
    bodies = _function_bodies(text)
    if not bodies:
        return text
    out, last = [], 0
    for start, body, end in bodies:
        if pattern.search(text, body, end):
            continue
        out.append(text[last:start])
        out.append(_blank(text[start:end]))
        last = end
    out.append(text[last:])
    return "".join(out)


def function_definitions(text: str) -> list[tuple[str, tuple[str, ...], int, int]]:
    """(name, parameter names, line of the opening brace, line of the closing brace) of each
    function defined in `text`, read from the text (the stale-data check follows calls into
    functions that the skimmed parse never sees).  Parameters whose name cannot be read are
    ""."""
    out = []
    for start, opened, end in _function_bodies(text):
        signature = text[start:opened - 1].rstrip()
        m = re.search(r"([A-Za-z_]\w*)\s*\(([^()]*)\)\s*$", signature)
        if m is None:
            continue
        params = [p for p in m.group(2).split(",") if p.strip() not in ("", "void")]
        names = tuple((re.findall(r"[A-Za-z_]\w*", re.sub(r"\[.*?\]", "", p)) or [""])[-1]
                      for p in params)
        out.append((m.group(1), names, text.count("\n", 0, opened) + 1,
                    text.count("\n", 0, end) + 1))
    return out


def _blank(body: str) -> str:
    """Spaces for every character but newlines; ``#`` lines (line markers, pragmas) kept."""
    lines = body.split("\n")
    return "\n".join(line if line.lstrip().startswith("#") else " " * len(line)
                     for line in lines)


def _function_bodies(text: str) -> list[tuple[int, int, int]]:
    """(definition start, body start, end) of each top-level ``{...}`` that follows a ``)``
    (function definitions; the definition starts after the previous top-level ``;``, ``}`` or
    directive line).  Empty if the braces do not balance or a literal is left open."""
    bodies: list[tuple[int, int, int]] = []
    depth, k, n, last_token, opened, start = 0, 0, len(text), "", 0, 0
    at_line_start = True
    while k < n:
        ch = text[k]
        if at_line_start and ch == "#":
            k = _line_end(text, k)
            if depth == 0:
                start = k
            continue
        if ch == "\n":
            at_line_start = True
            k += 1
            continue
        if ch in " \t\r\f\v":
            k += 1
            continue
        at_line_start = False
        if ch in "\"'":
            k = _literal_end(text, k)
            if k < 0:
                return []
            last_token = "literal"
            continue
        if text.startswith("/*", k) or text.startswith("//", k):
            k = _comment_end(text, k)
            if k < 0:
                return []
            continue
        if ch == "{":
            if depth == 0 and last_token == ")":
                opened = k + 1
            elif depth == 0:
                opened = -1
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return []
            if depth == 0 and opened > 0:
                bodies.append((start, opened, k + 1))
            if depth == 0:
                start = k + 1
        elif ch == ";" and depth == 0:
            start = k + 1
        last_token = ch
        k += 1
    return bodies if depth == 0 else []


def _line_end(text: str, k: int) -> int:
    """The index just after the directive starting at `k` (backslash continuations followed)."""
    while True:
        end = text.find("\n", k)
        if end < 0:
            return len(text)
        if not text[k:end].rstrip("\r").endswith("\\"):
            return end
        k = end + 1


def _literal_end(text: str, k: int) -> int:
    quote, k = text[k], k + 1
    while k < len(text):
        ch = text[k]
        if ch == "\\":
            k += 2
            continue
        if ch == quote:
            return k + 1
        if ch == "\n":
            return -1
        k += 1
    return -1


def _comment_end(text: str, k: int) -> int:
    if text.startswith("//", k):
        end = text.find("\n", k)
        return len(text) if end < 0 else end
    end = text.find("*/", k + 2)
    return -1 if end < 0 else end + 2
