"""Splitting a directive's text (after the sentinel) into its name words and clauses.

Shared by the OpenMP and OpenACC parsers: ``parallel do private(t, u) reduction(+:s)
collapse(2) nowait`` -> words ("parallel", "do"), clauses [("private", "t, u"),
("reduction", "+:s"), ("collapse", "2"), ("nowait", None)].  Commas between clauses are
allowed, as both standards allow.
"""

from __future__ import annotations

import re
from dataclasses import replace

from frontends.pragmas import c_section_bounds, fortran_section_bounds, split_outside_brackets
from translator.diagnostics import FrontendError, SourceSpan
from translator.ir.claims import ClauseSection
from translator.records import dataclass

_WORD = re.compile(r"\s*,?\s*([A-Za-z_][A-Za-z0-9_]*)")


@dataclass(frozen=True, slots=True)
class Clause:
    """``name(args)``; `args` is None for a clause without parentheses."""

    name: str
    args: str | None

    def names(self, fold: bool) -> tuple[str, ...]:
        """The comma-separated list in the parentheses (lower-cased when `fold`)."""
        items = tuple(a.strip() for a in split_outside_brackets(self.args or "") if a.strip())
        return tuple(a.lower() for a in items) if fold else items


@dataclass(frozen=True, slots=True)
class SplitDirective:
    words: tuple[str, ...]
    clauses: tuple[Clause, ...]


def split_directive(text: str, directive_words: frozenset[str], model: str,
                    span: SourceSpan, names_only: bool = False) -> SplitDirective:
    """The leading words found in `directive_words`, then the clauses (none with
    `names_only`: directives left as written are not checked further)."""
    pos, words = 0, []
    while True:
        m = _WORD.match(text, pos)
        if m is None or m.group(1).lower() not in directive_words or _opens(text, m.end()):
            break
        words.append(m.group(1).lower())
        pos = m.end()
    clauses: list[Clause] = []
    while text[pos:].strip() and not names_only:
        m = _WORD.match(text, pos)
        if m is None:
            raise FrontendError(f"malformed {model} directive: expected a clause at "
                                f"{text[pos:].strip()!r}", span)
        pos = m.end()
        args = None
        if _opens(text, pos):
            start = text.index("(", pos)
            end = _closing(text, start, model, span)
            args, pos = text[start + 1:end], end + 1
        clauses.append(Clause(m.group(1).lower(), args))
    return SplitDirective(tuple(words), tuple(clauses))


def _opens(text: str, pos: int) -> bool:
    return text[pos:].lstrip().startswith("(")


def _closing(text: str, start: int, model: str, span: SourceSpan) -> int:
    depth = 0
    for k in range(start, len(text)):
        if text[k] in "([":
            depth += 1
        elif text[k] in ")]":
            depth -= 1
            if depth == 0:
                return k
    raise FrontendError(f"malformed {model} directive: unbalanced parentheses in "
                        f"{text[start:].strip()!r}", span)


def clause_names(clause: Clause, fold: bool, name: str, span: SourceSpan) -> list[str]:
    """The variable names of a data-sharing clause (`fold`: Fortran's case); an error at
    `span` for anything else (sections, components)."""
    out = list(clause.names(fold))
    for n in out:
        if not n.replace("_", "a").isalnum() or n[0].isdigit():
            raise FrontendError(f"'{clause.name}' on '{name}' takes variable names; {n!r} is "
                                "not one (array sections and components are not allowed)",
                                span)
    return out


def clause_sections(clause: Clause, span: SourceSpan, language: str) -> tuple:
    """The array sections of a data clause (`ClauseSection`), for the check that a compute
    construct's clause covers what its loop uses: C ``x[start:length]`` per dimension,
    Fortran ``a(lo:hi, :)``; an item without a section, a map modifier (``to:``) or a COMMON
    block are skipped."""
    fold = language == "fortran"
    body = clause.args or ""
    if clause.name == "map" and ":" in body.split("(")[0].split("[")[0]:
        body = body.split(":", 1)[1]
    spelled = f"{clause.name}({(clause.args or '').strip()})"
    at = (span.source_line or "").lower().find(clause.name + "(")
    where = replace(span, col=at + 1) if at >= 0 and span is not None else span
    out = []
    for item in split_outside_brackets(body):
        item = item.strip()
        m = re.match(r"([A-Za-z_]\w*)\s*([\[(].*)$", item, re.S)
        if m is None:
            continue
        bounds = (c_section_bounds(m.group(2)) if language == "c"
                  else fortran_section_bounds(m.group(2)))
        if bounds:
            out.append(ClauseSection(clause=spelled, array=m.group(1).lower() if fold
                                     else m.group(1), bounds=bounds, span=where))
    return tuple(out)
