"""Scanning ``!$translate`` directives and grouping them into regions.

Directives are found in the text, line by line, before and independently of fparser (which
moves comments around in its tree).  Free form: ``!$translate`` as the first non-blank text of
a line.  Fixed form: ``c$translate``, ``*$translate`` or ``!$translate`` in column 1 (an
indented ``!$translate`` is accepted too).  The sentinel is case-insensitive.  A directive
ending in ``&`` continues on the next line, which starts with the sentinel and ``&``.  The same
scanner reads ``!$omp`` and ``!$acc`` directives, with their continuation rule
(`scan_directives`).
"""

from __future__ import annotations

import re

from frontends.base import TransformCall
from frontends.fortran.source import SourceLines, strip_comment
from frontends.marks import StatementMark, StatementMarkCollector
from frontends.pragmas import DATA_KINDS, Directive, directive_async, parse_directive
from translator.diagnostics import FrontendError, SourceSpan, near_miss_sentinel, warn
from translator.patterns import LazyPattern
from translator.records import dataclass

#: What may follow a sentinel: a blank or '&' (OpenMP/OpenACC fixed form: also a column-6
#: continuation mark such as a digit).
_AFTER = {"translate": r"[\s&]", "openmp": r"[\s&0-9]"}


@dataclass(frozen=True)
class RawDirective:
    """One directive, continuation lines joined.  `last_line` is its final physical line."""

    line: int
    last_line: int
    col: int
    text: str
    indent: str
    span: SourceSpan


@dataclass(frozen=True)
class RegionMarks:
    """A region as the directives delimit it (lines are 1-based, inclusive)."""

    name: str | None
    kernel_line: int
    end_line: int
    body_first_line: int
    indent: str
    calls: tuple[TransformCall, ...]
    span: SourceSpan
    end_span: SourceSpan
    statement_marks: tuple[StatementMark, ...] = ()
    #: OpenMP/OpenACC loop claims of the region: (claim, first line of its loop, spelling)
    #: (`frontends.directives`).
    claims: tuple = ()
    #: The region's last statement line when no ``end`` directive closes it (a directive's
    #: loop nest); None: the line before `end_line`.
    body_last_line: int | None = None
    #: ``kernel NAME async(N)``: the queue id (`Region.async_queue`).
    async_queue: int | None = None

    @property
    def last_statement_line(self) -> int:
        return self.end_line - 1 if self.body_last_line is None else self.body_last_line


def sentinel_patterns(word: str, form: str, continuation: str = "translate"
                      ) -> list[re.Pattern]:
    """The patterns of a directive line of sentinel ``!$<word>`` (groups: indentation,
    sentinel, text): free form anywhere after blanks; fixed form also ``c$``, ``*$`` or ``!$``
    in column 1 (OpenMP/OpenACC: then any character in column 6, a continuation mark such as
    ``+`` or ``&`` when it is not blank or zero)."""
    after = _AFTER[continuation]
    free = re.compile(rf"^(\s*)(!\${word})(?={after}|$)(.*)$", re.IGNORECASE)
    if form != "fixed":
        return [free]
    column6 = "." if continuation == "openmp" else after
    return [free, re.compile(rf"^()([cC*!]\${word})(?={column6}|$)(.*)$", re.IGNORECASE)]


def _match(line: str, patterns: list[re.Pattern]) -> re.Match | None:
    for pat in patterns:
        m = pat.match(line)
        if m is not None:
            return m
    return None


def scan_directives(lines: SourceLines, form: str, word: str = "translate",
                    continuation: str = "translate") -> list[RawDirective]:
    """Every directive of sentinel ``!$<word>`` in the file, in order, with continuations
    joined.  A directive ending in ``&`` continues on the next line, which starts with the
    sentinel; the `continuation` rule says the rest:

    - ``"translate"``: the next line's sentinel is followed by ``&``; the text is kept whole;
    - ``"openmp"`` (OpenMP and OpenACC): the ``&`` after the next line's sentinel is optional,
      in fixed form a character other than blank or zero after the sentinel (column 6) also
      continues, and a trailing ``!`` comment is dropped."""
    patterns = sentinel_patterns(word, form, continuation)
    out: list[RawDirective] = []
    k, total = 1, len(lines.lines)
    while k <= total:
        m = _match(lines.line(k), patterns)
        if m is None:
            k += 1
            continue
        first, col = k, len(m.group(1)) + 1
        span = lines.span(first, col)
        text = _body(m.group(3), form, continuation)
        while text.endswith("&") or _fixed_continues(lines, k + 1, patterns, form,
                                                     continuation):
            k += 1
            nxt = _match(lines.line(k), patterns) if k <= total else None
            cont = nxt.group(3).lstrip() if nxt else ""
            if nxt is None or (continuation == "translate" and not cont.startswith("&")):
                raise FrontendError(_continuation_error(m.group(2), continuation), span)
            rest = cont[1:] if continuation == "translate" else nxt.group(3)
            text = text.removesuffix("&").rstrip() + " " + _body(rest, form, continuation)
        out.append(RawDirective(first, k, col, text.strip(), m.group(1), span))
        k += 1
    return out


def _continuation_error(sentinel: str, continuation: str) -> str:
    if continuation == "translate":
        return ("translate directive continued with '&' but the next line is not a "
                "'!$translate&' continuation line")
    return (f"{sentinel} directive continued with '&' but the next line is not a "
            f"'{sentinel}' continuation line")


def _body(text: str, form: str, continuation: str) -> str:
    """A directive line's text after the sentinel, as joined (see `scan_directives`)."""
    body = text.strip()
    if continuation == "translate":
        return body
    if form == "fixed" and text[:1] not in (" ", "\t", "") and text[:1] != "0":
        body = text[1:].strip()        # column 6: a continuation mark
    if body.startswith("&"):
        body = body[1:].strip()
    return strip_comment(body).rstrip()


def _fixed_continues(lines: SourceLines, k: int, patterns: list[re.Pattern], form: str,
                     continuation: str) -> bool:
    if continuation == "translate" or form != "fixed" or k > len(lines.lines):
        return False
    m = _match(lines.line(k), patterns[1:])
    return m is not None and m.group(3)[:1] not in (" ", "\t", "", "0")


_NEAR_FREE = re.compile(r"^(\s*)(!\$)(\s*)([A-Za-z_]\w*)\s*(.?)")
_NEAR_FIXED = LazyPattern(r"^()([cC*!]\$)(\s*)([A-Za-z_]\w*)\s*(.?)")


def warn_near_miss_sentinels(lines: SourceLines, form: str) -> None:
    """``-Wunknown-sentinel`` at each comment line that looks like a misspelled directive:
    ``!$tranlsate ...`` (any near miss of ``translate`` right after ``!$``) and
    ``!$ translate ...`` (a blank after ``!$`` makes it OpenMP conditional compilation).
    ``!$omp``, ``!$acc`` and conditional-compilation code (``!$ use omp_lib``,
    ``!$ translated = .true.``) are left alone."""
    if "$" not in lines.text:
        return
    translate = sentinel_patterns("translate", form)
    for k in range(1, len(lines.lines) + 1):
        text = lines.line(k)
        if "$" not in text or _match(text, translate) is not None:
            continue
        m = _NEAR_FREE.match(text) or (_NEAR_FIXED.match(text) if form == "fixed" else None)
        if m is not None:
            _warn_near_miss(lines, k, m)


def _warn_near_miss(lines: SourceLines, line: int, m: re.Match) -> None:
    sentinel, gap, word, after = m.group(2), m.group(3), m.group(4), m.group(5)
    if not gap and word.lower() == "translate":
        warn("unknown-sentinel", f"'{sentinel}{word}' must be followed by a blank or '&' to be "
             "a translate directive; the line is a comment and is ignored",
             lines.span(line, m.start(4) + 1))
    elif not gap and near_miss_sentinel(word):
        warn("unknown-sentinel", f"'{sentinel}{word}' is not a translate directive (did you "
             f"mean '{sentinel}translate'?); the line is a comment and is ignored",
             lines.span(line, m.start(4) + 1))
    elif gap and after not in ("=", "(", "%") and (word.lower() == "translate"
                                                   or near_miss_sentinel(word)):
        warn("unknown-sentinel", f"'{sentinel} {word}' is not a translate directive: with a "
             f"blank after '{sentinel}' it is an OpenMP conditional-compilation line (write "
             f"'{sentinel}translate'); it is ignored", lines.span(line, m.start(2) + 1))


def group_regions(directives: list[RawDirective], lines: SourceLines,
                  form: str) -> list[RegionMarks]:
    """Pair ``kernel`` with ``end kernel`` and attach transform calls; errors at directives."""
    regions: list[RegionMarks] = []
    open_dir: RawDirective | None = None
    open_name: str | None = None
    open_async: int | None = None
    calls: list[TransformCall] = []
    stmt_marks = StatementMarkCollector()
    last_line = 0
    for d in directives:
        parsed = parse_directive(d.text, d.span)
        if parsed.kind in DATA_KINDS:
            _check_data_outside(open_dir, d)
            continue
        if parsed.kind in ("mark", "block", "end_block"):
            if open_dir is None:
                raise FrontendError("statement directive outside a kernel region", d.span)
            stmt_marks.add(parsed, d.last_line)
            continue
        if parsed.kind == "kernel":
            if open_dir is not None:
                raise FrontendError(
                    "nested kernel region: a 'kernel' directive inside the region opened at "
                    f"line {open_dir.line} (close it with '!$translate end kernel' first)", d.span)
            open_dir, open_name, calls, last_line = d, parsed.name, [], d.last_line
            open_async = directive_async(parsed)
            stmt_marks = StatementMarkCollector()
        elif parsed.kind == "end_kernel":
            if open_dir is None:
                raise FrontendError("'end kernel' directive without a matching 'kernel' "
                                    "directive", d.span)
            regions.append(_close(open_dir, open_name, calls, last_line, d,
                                  stmt_marks.finish(d.span), open_async))
            open_dir = None
        else:
            _check_call(parsed, d, open_dir, last_line, lines, form)
            # Fortran is case-insensitive: SPLIT_INAME(...) names split_iname, and the names
            # in its arguments are resolved against the kernel when it is applied
            calls.append(TransformCall(name=parsed.name.lower(), args=parsed.args,
                                       kwargs=parsed.kwargs, span=d.span,
                                       case_insensitive=True))
            last_line = d.last_line
    if open_dir is not None:
        raise FrontendError("unterminated kernel region: no '!$translate end kernel' before the "
                            "end of the file", open_dir.span)
    return regions


def _check_data_outside(open_dir: RawDirective | None, d: RawDirective) -> None:
    if open_dir is not None:
        raise FrontendError("data directive inside a kernel region (opened at line "
                            f"{open_dir.line}): data directives belong in host code, around "
                            "regions", d.span)


def _check_call(parsed: Directive, d: RawDirective, open_dir: RawDirective | None,
                last_line: int, lines: SourceLines, form: str) -> None:
    if open_dir is None:
        raise FrontendError(f"transform directive '{parsed.name}(...)' outside a kernel region "
                            "(it must follow a '!$translate kernel' line)", d.span)
    if _code_between(last_line, d.line, lines, form):
        raise FrontendError(f"transform directive '{parsed.name}(...)' must come right after the "
                            "'kernel' directive, before the region's first statement", d.span)


def is_comment_line(line: str, form: str) -> bool:
    """Blank lines and comment lines (fixed form: c, C, * or ! in column 1)."""
    text = line.strip()
    if not text or text.startswith("!"):
        return True
    return form == "fixed" and line[0] in "cC*"


def _code_between(after: int, before: int, lines: SourceLines, form: str) -> bool:
    """Whether any line strictly between the two holds something other than comments."""
    return any(not is_comment_line(lines.line(k), form) for k in range(after + 1, before))


def _close(open_dir: RawDirective, name: str | None, calls: list[TransformCall],
           last_line: int, end: RawDirective,
           stmt_marks: tuple[StatementMark, ...], async_queue: int | None) -> RegionMarks:
    return RegionMarks(name=name.lower() if name else None, kernel_line=open_dir.line,
                       end_line=end.last_line, body_first_line=last_line + 1,
                       indent=open_dir.indent, calls=tuple(calls), span=open_dir.span,
                       end_span=end.span, statement_marks=stmt_marks, async_queue=async_queue)
