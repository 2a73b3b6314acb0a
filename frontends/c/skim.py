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
_DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+translate[ \t]+(kernel|end)\b.*$", re.M)


def blank_unneeded_bodies(text: str, pragmas: tuple[str, ...] = ("translate",), *,
                          keep_called: bool = True) -> str:
    """`text` with the definitions of functions without a translate pragma blanked out
    (`pragmas`: the pragma words that count, ``omp`` and ``acc`` with ``--directives``; with
    `keep_called`, not those that a region may call either: a region inlines them)."""
    pattern = _PRAGMA if pragmas == ("translate",) else re.compile(
        rf"^[ \t]*#[ \t]*pragma[ \t]+(?:{'|'.join(pragmas)})\b", re.M)
    bodies = _function_bodies(text)
    if not bodies:
        return text
    kept = (_needed(text, bodies, pattern) if keep_called else
            {k for k, (_, body, end) in enumerate(bodies) if pattern.search(text, body, end)})
    out, last = [], 0
    for k, (start, body, end) in enumerate(bodies):
        if k in kept:
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
        found = _signature(text[start:opened - 1])
        if found is None:
            continue
        name, parameters = found
        params = [p for p in _top_level_commas(parameters) if p.strip() not in ("", "void")]
        names = tuple(_parameter_name(p) for p in params)
        out.append((name, names, text.count("\n", 0, opened) + 1,
                    text.count("\n", 0, end) + 1))
    return out


def _parameter_name(param: str) -> str:
    """The name a parameter declaration declares (``float (*rows)[8]``: rows; ``double
    (*f)(double)``: f), "" if none."""
    pointer = re.search(r"\(\s*\*\s*([A-Za-z_]\w*)\s*\)", param)
    if pointer is not None:
        return pointer.group(1)
    return (re.findall(r"[A-Za-z_]\w*", re.sub(r"\[.*?\]", "", param)) or [""])[-1]


def _signature(text: str) -> tuple[str, str] | None:
    """(name, parameter list text) of a function definition's signature `text`: the
    identifier before its last parenthesised group, which may hold parentheses itself
    (``float (*rows)[8]``, ``double (*f)(double)``); None if it does not end so."""
    text = text.rstrip()
    if not text.endswith(")"):
        return None
    depth, k = 0, len(text) - 1
    while k >= 0:
        depth += {")": 1, "(": -1}.get(text[k], 0)
        if depth == 0:
            break
        k -= 1
    m = re.search(r"([A-Za-z_]\w*)\s*$", text[:max(k, 0)])
    return None if k < 0 or m is None else (m.group(1), text[k + 1:-1])


def _top_level_commas(text: str) -> list[str]:
    """`text` split at the commas outside parentheses and brackets."""
    parts, depth, last = [], 0, 0
    for k, ch in enumerate(text):
        depth += (ch in "([") - (ch in ")]")
        if ch == "," and depth == 0:
            parts.append(text[last:k])
            last = k + 1
    return [*parts, text[last:]]


def _needed(text: str, bodies: list[tuple[int, int, int]], pattern: re.Pattern) -> set[int]:
    """Indices of the bodies holding a pragma of `pattern`, and of those of the functions their
    regions name (a call or its name), transitively (with OpenMP or OpenACC directives, the
    whole body of a function holding one counts as its regions)."""
    names: dict[str, int] = {}
    for k, (start, opened, _) in enumerate(bodies):
        found = _signature(text[start:opened - 1])
        if found is not None:
            names.setdefault(found[0], k)
    kept = {k for k, (_, body, end) in enumerate(bodies) if pattern.search(text, body, end)}
    pending = [text[a:b] for k in sorted(kept)
               for a, b in (_region_spans(text, *bodies[k][1:]) if pattern is _PRAGMA
                            else [bodies[k][1:]])]
    while pending:
        for word in set(re.findall(r"[A-Za-z_]\w*", pending.pop())):
            k = names.get(word)
            if k is not None and k not in kept:
                kept.add(k)
                pending.append(text[bodies[k][1]:bodies[k][2]])
    return kept


def _region_spans(text: str, body: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of the text between each ``kernel`` directive of a body and the ``end
    kernel`` after it."""
    out, start = [], None
    for m in _DIRECTIVE.finditer(text, body, end):
        if m.group(1) == "kernel" and start is None:
            start = m.end()
        elif m.group(1) == "end" and start is not None:
            out.append((start, m.start()))
            start = None
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
