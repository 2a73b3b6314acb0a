"""Preprocessed Fortran: what gfortran ``-cpp`` makes of a file, at the file's own line numbers.

gfortran preprocesses ``.F``, ``.FOR``, ``.FTN``, ``.FPP``, ``.fpp``, ``.F90``, ``.F95``,
``.F03`` and ``.F08`` files (and any file with ``-cpp``) with its own C preprocessor in
traditional mode.  The translator runs that same preprocessor (``gfortran -E -cpp``, with the
command's ``-D``/``-U``/``-I``), so regions are translated for the configuration given: an
``#ifdef SP`` that chooses ``real(4)`` gives a ``float`` kernel under ``-DSP``.

The frontend then reads a *line-aligned* text: line k holds what the preprocessor made of line
k of the file (macros expanded; directive lines and lines of inactive branches empty), read
from the preprocessor's ``# N "file"`` markers.  The statements of an ``#include``d file go on
the ``#include`` line itself, joined by ``;``, so every line number, span and region boundary
the frontend computes is the file's own.  The rewritten source is the file as written (its
preprocessor lines kept), each region replaced by a call.

Refused, with an error at the line: a ``!$translate`` directive in an included file (regions
are written in the translated file), a ``#line`` directive (its lines could not be mapped back)
and whatever the preprocessor itself rejects (``#error``, a missing include, ...).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

from frontends.fortran.source import SourceLines, strip_comment
from frontends.macros import candidate_names, guard, split_probes, with_probes
from frontends.quick import fixed_line_length
from translator.diagnostics import FrontendError
from translator.patterns import LazyPattern

#: Suffixes gfortran preprocesses (case matters: ``.f90`` is not preprocessed, ``.F90`` is).
PREPROCESSED_SUFFIXES = (".F", ".FOR", ".FTN", ".FPP", ".fpp", ".F90", ".F95", ".F03", ".F08")

_STDIN = "<stdin>"
_MARKER = LazyPattern(r'^# (\d+) "((?:[^"\\]|\\.)*)"((?: \d+)*)\s*$')
_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif|define|undef|include|error)\b")
_LINE_DIRECTIVE = re.compile(r"^\s*#\s*(?:line\b|\d)")
_MESSAGE = LazyPattern(r"^(.*?):(\d+):(\d+): (?:Fatal )?Error: (.*)$", re.M)
_SENTINEL = LazyPattern(r"^\s*[!cC*]\$translate(?=[\s&]|$)", re.I)


def wants_preprocessing(path: str, options: dict[str, Any]) -> bool:
    """``options["preprocess"]`` (``--cpp``/``--no-cpp``) if given, else by suffix as gfortran."""
    flag = options.get("preprocess")
    if flag is not None:
        return bool(flag)
    return os.path.splitext(path)[1] in PREPROCESSED_SUFFIXES


def preprocessed_text(path: str, text: str, form: str, options: dict[str, Any]) -> str | None:
    """The line-aligned preprocessed text of a file, or None when it is not preprocessed."""
    if not wants_preprocessing(path, options):
        return None
    lines = SourceLines(path, text)
    _refuse_line_directives(lines)
    cpp_args = [str(a) for a in options.get("cpp_args", ()) or ()]
    output = run_fortran_cpp(lines, form, cpp_args)
    return align(output, lines, form)


def analysed_text(path: str, text: str, form: str, options: dict[str, Any]) -> str | None:
    """What the frontend reads of a file, line for line (None: the file as written):
    preprocessed where gfortran preprocesses it, then, in fixed form, each line cut at the
    line length as gfortran reads it."""
    analysed = preprocessed_text(path, text, form, options)
    base = text if analysed is None else analysed
    clipped, _ = clip_fixed_lines(base, form, fixed_line_length(options))
    return analysed if clipped == base else clipped


#: A translate directive in fixed form (``C$TRANSLATE``, ``!$translate``): a comment to
#: gfortran, read whole by the translator whatever its length (`clip_fixed_lines`).
_TRANSLATE_SENTINEL = re.compile(r"[cC*!]\$translate\b", re.IGNORECASE)


def clip_fixed_lines(text: str, form: str, width: int | None) -> tuple[str, int | None]:
    """`text` with each fixed-form line cut after column `width` (a line holding a tab, and a
    translate directive, which gfortran reads as a comment, are left whole), and the first line, not a comment
    (a directive, ``!$omp``, ``c$acc``, counts), whose cut text was not blank (None: none)."""
    if form != "fixed" or width is None:
        return text, None
    out, first = [], None
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > width and "\t" not in line and not _TRANSLATE_SENTINEL.match(line):
            if first is None and line[width:].strip() and (line[:1] not in "cC*!"
                                                            or line[1:2] == "$"):
                first = number
            line = line[:width]
        out.append(line)
    return "\n".join(out), first


def macro_guard(path: str, text: str, form: str, options: dict[str, Any],
                spans: Sequence[tuple[int, int]]) -> str:
    """The lines that end the rewritten source of a preprocessed file: the macros the
    translation used, checked again when it compiles (`frontends.macros`); "" for a file
    that is not preprocessed."""
    if not wants_preprocessing(path, options):
        return ""
    names = candidate_names(text, "fortran")
    lines = SourceLines(path, with_probes(text, names))
    cpp_args = [str(a) for a in options.get("cpp_args", ()) or ()]
    _, values = split_probes(run_fortran_cpp(lines, form, cpp_args), names)
    return guard(os.path.basename(path), text, spans, values, "fortran")


def refuse_unpreprocessed_directives(lines: SourceLines) -> None:
    """A file that is not preprocessed must not hold preprocessor directives: gfortran would
    ignore them (with a warning) and compile every branch, which is never what was meant, and
    the translator would read both ``#ifdef`` branches' declarations."""
    for k, line in enumerate(lines.lines, start=1):
        m = _DIRECTIVE.match(line)
        if m:
            raise FrontendError(f"preprocessor directive '#{m.group(1)}' in a file that is not "
                                "preprocessed (gfortran preprocesses .F90, .F, .FPP ... files, "
                                "or any file with -cpp): pass --cpp, or rename the file",
                                lines.span(k))


def _refuse_line_directives(lines: SourceLines) -> None:
    for k, line in enumerate(lines.lines, start=1):
        if _LINE_DIRECTIVE.match(line):
            raise FrontendError("#line directive in a preprocessed Fortran file: the translator "
                                "reports and rewrites by the file's own line numbers and cannot "
                                "follow it", lines.span(k))


def run_fortran_cpp(lines: SourceLines, form: str, cpp_args: Sequence[str]) -> str:
    """gfortran's preprocessor on the text, from the file's directory (so ``#include "x"``
    finds what the compiler finds); returns its output, line markers kept."""
    import subprocess  # here: a file that is not preprocessed (.f90) never starts one
    directory = os.path.dirname(os.path.abspath(lines.path))
    language = "f77-cpp-input" if form == "fixed" else "f95-cpp-input"
    cmd = ["gfortran", "-E", "-cpp", "-fdiagnostics-plain-output", f"-f{form}-form",
           "-x", language, *(_absolute(a) for a in cpp_args), "-"]
    try:
        proc = subprocess.run(cmd, input=lines.text.encode("utf-8", "surrogateescape"),
                              capture_output=True, timeout=120, check=False, cwd=directory,
                              env={**os.environ, "LC_ALL": "C"})
    except (OSError, subprocess.TimeoutExpired) as e:
        raise FrontendError(f"cannot run the Fortran preprocessor (gfortran -E -cpp): {e}",
                            lines.span(1)) from None
    if proc.returncode != 0:
        raise _cpp_error(lines, proc.stderr.decode("utf-8", "replace"))
    return proc.stdout.decode("utf-8", "surrogateescape")


def _absolute(arg: str) -> str:
    """``-Idir`` relative to the translator's directory, made absolute (cpp runs elsewhere)."""
    if arg.startswith("-I") and len(arg) > 2:
        return "-I" + os.path.abspath(arg[2:])
    return arg


def _cpp_error(lines: SourceLines, stderr: str) -> FrontendError:
    m = _MESSAGE.search(stderr)
    if m is None:
        first = (stderr.strip().splitlines() or ["no message"])[0]
        return FrontendError(f"Fortran preprocessor failed: {first}", lines.span(1))
    file, line, col, message = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4).strip()
    if file != _STDIN:   # in an included file: reported at the file's #include line
        return FrontendError(f"Fortran preprocessor: {file}:{line}: {message}",
                             lines.span(_include_line(lines, file, len(lines.lines))))
    missing = re.match(r"(.*): No such file or directory$", message)
    if missing:   # gfortran names the line after the #include
        line = _include_line(lines, missing.group(1), line)
        return FrontendError(f"Fortran preprocessor: cannot find include file "
                             f"{missing.group(1)!r}", lines.span(line, word="include"))
    return FrontendError(f"Fortran preprocessor: {message}", lines.span(line, max(col, 1)))


def _include_line(lines: SourceLines, name: str, before: int) -> int:
    """The last ``#include`` line at or before `before` naming `name` (its base name); 1 if
    none does."""
    base = re.escape(os.path.basename(name))
    pattern = re.compile(rf"^\s*#\s*include\s*[\"<](?:[^\">]*/)?{base}[\">]")
    found = [k for k in range(1, min(before, len(lines.lines)) + 1)
             if pattern.match(lines.line(k))]
    return found[-1] if found else 1


# ---------------------------------------------------------------------------------------------
# line alignment

def align(output: str, lines: SourceLines, form: str) -> str:
    """The preprocessor's output laid on the file's lines (see the module docstring)."""
    count = len(lines.lines)
    aligned = [""] * count
    current, number, included, included_from = "", 1, [], ""
    for raw in output.split("\n"):
        marker = _MARKER.match(raw)
        if marker is not None:
            name, flags = marker.group(2), marker.group(3).split()
            if name == _STDIN and included and "2" in flags:
                at = int(marker.group(1)) - 1
                aligned[at - 1] = _joined(included, included_from, lines, at, form)
                included = []
            if name != _STDIN and "1" in flags and current == _STDIN:
                included_from = name
            current, number = name, int(marker.group(1))
        elif current == _STDIN:
            if raw.strip():
                _place(aligned, number, raw, lines)
            number += 1
        elif current not in ("", "<built-in>", "<command-line>"):
            included.append(raw)
    return "".join(line + "\n" for line in aligned)


def _place(aligned: list[str], number: int, raw: str, lines: SourceLines) -> None:
    if not 1 <= number <= len(aligned):
        raise FrontendError(f"the Fortran preprocessor's output does not map onto the file's "
                            f"lines (line {number} of {len(aligned)})", lines.span(1))
    aligned[number - 1] = raw.removesuffix("\r")


def _joined(included: list[str], name: str, lines: SourceLines, at: int, form: str) -> str:
    """The statements of an included file as one line, for the ``#include`` line `at`."""
    for raw in included:
        if _SENTINEL.match(raw):
            raise FrontendError(f"translate directive in the included file {name}: kernel "
                                "regions and their directives must be written in the translated "
                                "file itself", lines.span(at, word="include"))
    statements = fixed_statements(included) if form == "fixed" else free_statements(included)
    indent = " " * 6 if form == "fixed" else ""
    return indent + "; ".join(statements)


def free_statements(raw_lines: Sequence[str]) -> list[str]:
    """The statements of free-form lines, comments dropped and continuations joined."""
    statements, current, continued = [], "", False
    for raw in raw_lines:
        code = strip_comment(raw).strip()
        if continued:
            code = code.removeprefix("&").lstrip()
        continued = code.endswith("&")
        current += code.removesuffix("&").rstrip() if continued else code
        if not continued and current:
            statements.append(current)
            current = ""
    return statements + ([current] if current else [])


def fixed_statements(raw_lines: Sequence[str]) -> list[str]:
    """The statements of fixed-form lines (label in columns 1-5, continuation mark in 6)."""
    statements: list[str] = []
    for raw in raw_lines:
        raw = raw.expandtabs(6) if raw.startswith("\t") else raw
        if not raw.strip() or raw[0] in "cC*!" or raw.lstrip().startswith("!"):
            continue
        body = strip_comment(raw[6:]).strip()
        if len(raw) > 5 and raw[5] not in " 0" and statements:
            statements[-1] += body
        elif body:
            label = raw[:5].strip()
            statements.append(f"{label} {body}" if label else body)
    return statements
