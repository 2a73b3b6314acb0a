"""Top-level program units found from the text alone, so that fparser parses only the units
the translation needs.

Parsing is the translator's cost on a large file: fparser2 takes about half a millisecond a
line.  The frontend needs the units that hold a region and every module (a region's procedure
may use one); every other unit is blanked out (its lines become empty lines, so line numbers
stay the same) before parsing.  The scan counts unit headers and their END statements; when it
cannot account for the text with certainty it returns None and the whole file is parsed.

A syntax error inside a unit that is not parsed is left to the Fortran compiler, which sees
the untouched file.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from translator.records import dataclass

_PREFIX = r"(?:(?:pure|impure|elemental|recursive|non_recursive|module)\s+)*"
_TYPE = (r"(?:(?:integer|real|double\s*precision|double\s*complex|complex|logical|character"
         r"|type|class)\s*(?:\([^)]*\)|\*\s*\(?[\w*]+\)?)?\s*)?")
_PROCEDURE = re.compile(rf"{_PREFIX}{_TYPE}{_PREFIX}(subroutine|function)\s+[a-z]\w*")
_UNIT = re.compile(r"(program|module|submodule|block\s*data)\b\s*(.*)$")
_END = re.compile(r"end\s*(?:(subroutine|function|program|module|submodule|block\s*data)\b.*)?$")
_LABEL = re.compile(r"^\d+\s+")


@dataclass(frozen=True)
class Unit:
    """A top-level program unit: its kind and first and last lines (1-based, inclusive)."""

    kind: str
    first: int
    last: int


def top_level_units(text: str, form: str) -> list[Unit] | None:
    """The file's top-level units in order, or None when the scan is not certain."""
    units: list[Unit] = []
    depth, start, kind = 0, 0, ""
    for number, stmt in _statements(text, form):
        if stmt is None:
            return None
        opened = _opens(stmt)
        if opened:
            if depth == 0:
                start, kind = number, opened
            depth += 1
        elif _END.match(stmt):
            depth -= 1
            if depth < 0:
                return None
            if depth == 0:
                units.append(Unit(kind, start, number))
        elif depth == 0:   # a main program without a PROGRAM statement
            start, kind, depth = number, "program", 1
    return units if depth == 0 else None


def _opens(stmt: str) -> str:
    """The kind of unit or procedure `stmt` begins, or ''."""
    m = _UNIT.match(stmt)
    if m:
        word, rest = m.group(1).replace(" ", ""), m.group(2).strip()
        if word == "submodule":
            return word if rest.startswith("(") else ""
        named = re.fullmatch(r"[a-z]\w*", rest) is not None
        if word == "module":
            return word if named and not re.match(r"procedure\b", rest) else ""
        return word if named or not rest else ""
    m = _PROCEDURE.match(stmt)
    return m.group(1) if m else ""


def _statements(text: str, form: str):
    """(line, lowercase statement start) for every statement; a line the scan cannot read
    yields (line, None)."""
    continued = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if form == "fixed":
            if raw[:1] in ("c", "C", "*", "!") or not raw.strip():
                continue
            if len(raw) > 5 and raw[5] not in (" ", "0"):
                continue   # a continuation line
            code = raw[6:72] if len(raw) > 6 else ""
            label = raw[:5]
            if label.strip() and not label.strip().isdigit():
                yield number, None
                return
        else:
            code = raw
        code = _code_part(code)
        if code is None:
            yield number, None
            return
        if form != "fixed":
            was_continued = continued
            continued = code.rstrip().endswith("&")
            if was_continued:
                continue
        code = _LABEL.sub("", code.strip().lower())
        if not code or code.startswith("#"):
            continue
        for part in code.split(";"):
            if part.strip():
                yield number, part.strip().rstrip("&").strip()


def _code_part(line: str) -> str | None:
    """The line without its comment and with string contents removed; None if a string is
    left open (a continued string: not worth following)."""
    if "'" not in line and '"' not in line:
        cut = line.find("!")   # no string: the comment starts at the first "!"
        return line if cut < 0 else line[:cut]
    out, quote = [], ""
    for ch in line:
        if quote:
            if ch == quote:
                quote = ""
                out.append(ch)
            continue
        if ch in ("'", '"'):
            quote = ch
            out.append(ch)
        elif ch == "!":
            break
        else:
            out.append(ch)
    return None if quote else "".join(out)


def _holds_one(lines: list[int], first: int, last: int) -> bool:
    """Whether one of the sorted `lines` lies in ``first..last`` (a unit per region: a scan
    of every line per unit was quadratic in a file of many small subroutines)."""
    k = bisect_left(lines, first)
    return k < len(lines) and lines[k] <= last


def blank_unneeded_units(text: str, form: str, keep_lines: list[int]) -> str:
    """`text` with every top-level unit blanked out except modules, submodules and the units
    holding one of `keep_lines`; `text` itself when the scan is uncertain."""
    units = top_level_units(text, form)
    if not units:
        return text
    keep = sorted(keep_lines)
    drop = [u for u in units if u.kind not in ("module", "submodule")
            and not _holds_one(keep, u.first, u.last)]
    if not drop:
        return text
    # a line may hold several units (the statements of an #include'd file share its line:
    # see frontends.fortran.preprocess); it stays if one of them does
    kept = {k for u in units if u not in drop for k in range(u.first, u.last + 1)}
    lines = text.splitlines(keepends=True)
    for u in drop:
        for k in range(u.first - 1, u.last):
            if k + 1 not in kept:
                lines[k] = "\n" if lines[k].endswith("\n") else ""
    return "".join(lines)
