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
                          keep_called: bool = True, declarations: bool = False) -> str:
    """`text` with the definitions of functions without a translate pragma blanked out
    (`pragmas`: the pragma words that count, ``omp`` and ``acc`` with ``--directives``; with
    `keep_called`, not those that a region may call either: a region inlines them).  With
    `declarations`, the system headers' declarations that nothing names are blanked too
    (`unused_declarations`).  `text` itself when nothing is blanked."""
    pattern = _PRAGMA if pragmas == ("translate",) else re.compile(
        rf"^[ \t]*#[ \t]*pragma[ \t]+(?:{'|'.join(pragmas)})\b", re.M)
    bodies, found = _top_level(text)
    if not bodies:
        return text
    kept = (_needed(text, bodies, pattern) if keep_called else
            {k for k, (_, body, end) in enumerate(bodies) if pattern.search(text, body, end)})
    spans = [(start, end) for k, (start, _, end) in enumerate(bodies) if k not in kept]
    if declarations:
        spans = sorted(spans + unused_declarations(text, found))
    if not spans:
        return text
    out, last = [], 0
    for start, end in spans:
        out.append(text[last:start])
        out.append(_blank(text[start:end]))
        last = end
    out.append(text[last:])
    return "".join(out)


#: A line marker of the preprocessor, ``# LINE "FILE" FLAGS``: flag 3 marks a system header.
_MARKER = re.compile(r'^[ \t]*#[ \t]*(?:line[ \t]+)?\d+[ \t]+("(?:[^"\\\n]|\\.)*")([ \t\d]*)$',
                     re.M)
#: What a single declaration holds before its parameter list: type words, stars, the name.
_HEAD = re.compile(r"[\w\s*]*")
#: What a parameter list of a plain declaration never holds (a body, an initialiser).
_NOT_IN_PARAMETERS = re.compile(r"[{}=;]")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_PARENTHESIS = re.compile(r"[()]")
#: An identifier (group 1), or a line marker, whose file name names nothing (``<stdin>``).
_NAMED = re.compile(r'^[ \t]*#[ \t]*(?:line[ \t]+)?\d+[ \t]+"[^\n]*|([A-Za-z_]\w*)', re.M)
#: Words that never name what a declaration declares (``struct tag;``, ``typedef``).
_NOT_A_NAME = frozenset({"typedef", "struct", "union", "enum", "void", "char", "short", "int",
                         "long", "float", "double", "signed", "unsigned", "_Bool", "const",
                         "volatile", "restrict", "extern", "static", "inline", "register",
                         "auto", "_Thread_local", "_Complex", "_Noreturn", "_Atomic"})


def unused_declarations(text: str, declarations: list[tuple[int, int]]
                        ) -> list[tuple[int, int]]:
    """(start, end) of the system headers' declarations of functions, variables and typedef
    names among the top-level `declarations` of `text` (preprocessed) that nothing else in
    it names.

    A C file's ``#include <stdio.h>`` brings about 90 prototypes and 70 typedefs, and
    pycparser spent 20 ms parsing them on every translation (issue 24).  Only a declaration
    of one name (type words, stars, the name, one parameter list; or ``typedef`` type words,
    stars, the name) inside a system header (line marker flag 3) is dropped, and only when
    that name occurs nowhere else in the text: not in the file, its own headers, macro
    expansions, any other declaration or definition of the headers, or a declaration that
    stays.  Tags, enumerations, initialised or multiple declarations always stay, so every
    name the frontend can look up means what it did, and the text still parses; the caller
    parses the whole text if it does not.
    """
    system = _system_spans(text)
    found = _single_declarations(text, declarations, system) if system else []
    used: set[str] = set()
    last = 0
    for start, end, _ in found:
        used.update(_NAMED.findall(text, last, start))
        last = end
    if found:
        used.update(_NAMED.findall(text, last))
    unused = set(range(len(found)))
    while True:   # what a kept declaration names (its types) is used too
        kept = [k for k in unused if found[k][2] in used]
        if not kept:
            break
        for k in kept:
            unused.discard(k)
            used.update(_IDENTIFIER.findall(text, found[k][0], found[k][1]))
    return [found[k][:2] for k in sorted(unused)]


def _system_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of the stretches of `text` that line markers attribute to system headers,
    adjacent ones merged.  A system header is a file some marker gives flag 3 (gcc leaves
    the flag off the marker after a macro of the command line, ``restrict`` for
    ``__restrict``, although the line is the header's)."""
    markers = [(m.start(), m.group(1), m.group(2)) for m in _MARKER.finditer(text)]
    headers = {name for _, name, flags in markers if "3" in flags.split()}
    spans: list[tuple[int, int]] = []
    opened = -1
    for at, name, _ in markers:
        if name in headers and opened < 0:
            opened = at
        elif name not in headers and opened >= 0:
            spans.append((opened, at))
            opened = -1
    if opened >= 0:
        spans.append((opened, len(text)))
    return spans


def _single_declarations(text: str, declarations: list[tuple[int, int]],
                         system: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(start, end, declared name) of the `declarations` inside a `system` span that declare
    one function or variable (see `unused_declarations`)."""
    out, spans = [], iter(system)
    span_start, span_end = next(spans)
    for start, end in declarations:
        while start >= span_end:
            span_start, span_end = next(spans, (len(text) + 1, len(text) + 1))
        if start < span_start or end > span_end:
            continue
        plain = text[start:end]
        if "#" in plain:   # a line marker inside the declaration
            plain = "\n".join(line for line in plain.split("\n")
                               if not line.lstrip().startswith("#"))
        name = _declared_name(plain)
        if name:
            out.append((start, end, name))
    return out


def _declared_name(text: str) -> str:
    """The name `text` declares if it is ``WORDS STARS NAME (PARAMETERS);``, ``WORDS STARS
    NAME;`` or ``typedef WORDS STARS NAME;`` and not a tag, else ""."""
    body = text.rstrip()[:-1]   # without the ';'
    paren = body.find("(")
    head, params = (body, "") if paren < 0 else (body[:paren], body[paren:].rstrip())
    words = _IDENTIFIER.findall(head)
    if (not words or not _HEAD.fullmatch(head) or not head.rstrip().endswith(words[-1])
            or words[-1] in _NOT_A_NAME
            or (len(words) > 1 and words[-2] in ("struct", "union", "enum"))):
        return ""
    if "typedef" in words and (words[0] != "typedef" or words.count("typedef") > 1 or params):
        return ""
    if params and (_NOT_IN_PARAMETERS.search(params) or not _one_group(params)):
        return ""
    return words[-1]


def _one_group(text: str) -> bool:
    """Whether `text`, which starts with ``(`` and ends with ``)``, is one parenthesised
    group (``(int, void (*)(int))``; not ``(*f(int))(double)``)."""
    depth = 0
    for m in _PARENTHESIS.finditer(text):
        depth += 1 if m.group() == "(" else -1
        if depth == 0:
            return m.end() == len(text)
    return False


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
    return _top_level(text)[0]


#: What ends a run of plain text for `_top_level`: a literal, a comment, a brace, a semicolon,
#: a line end.
_SPECIAL = re.compile(r"[\"'/{};\n]")
_BLANKS = re.compile(r"[ \t\r\f\v]*")


def _top_level(text: str) -> tuple[list[tuple[int, int, int]], list[tuple[int, int]]]:
    """The function definitions of `_function_bodies`, and the (start, end) of each top-level
    declaration ended by a ``;`` (it starts after the previous one or a function body; a
    ``;`` inside braces, parentheses of a definition's body or a literal does not count).
    Both empty if the braces do not balance or a literal is left open.  Plain text between
    the characters that matter is skipped by a regular expression (a pass per character
    cost 7 ms for stdio.h)."""
    bodies: list[tuple[int, int, int]] = []
    declarations: list[tuple[int, int]] = []
    depth, k, n, last_token, opened, start, declared = 0, 0, len(text), "", 0, 0, 0
    at_line_start = True
    while k < n:
        if at_line_start:
            k = _BLANKS.match(text, k).end()
            if k < n and text[k] == "#":
                k = _line_end(text, k)
                if depth == 0:
                    start = k
                continue
        m = _SPECIAL.search(text, k)
        j = n if m is None else m.start()
        if j > k:
            plain = text[k:j].rstrip(" \t\r\f\v")
            if plain:
                last_token, at_line_start = plain[-1], False
            k = j
        if k >= n:
            break
        ch = text[k]
        if ch == "\n":
            at_line_start = True
            k += 1
            continue
        at_line_start = False
        if ch in "\"'":
            k = _literal_end(text, k)
            if k < 0:
                return [], []
            last_token = "literal"
            continue
        if ch == "/" and text.startswith(("/*", "//"), k):
            k = _comment_end(text, k)
            if k < 0:
                return [], []
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
                return [], []
            if depth == 0 and opened > 0:
                bodies.append((start, opened, k + 1))
                declared = k + 1
            if depth == 0:
                start = k + 1
        elif ch == ";" and depth == 0:
            start = k + 1
            declarations.append((declared, k + 1))
            declared = k + 1
        last_token = ch
        k += 1
    return (bodies, declarations) if depth == 0 else ([], [])


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
