"""Command lines: which compiler arguments the frontend must see (``-I``, ``-D``, ``-U``),
and the argument parser of the ``translate`` commands."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence

from translator.diagnostics import near_miss_sentinel
from translator.patterns import LazyPattern


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, measuring the terminal without importing shutil (argparse
    makes one per option; shutil and the compression modules it loads are 2 ms of a 50 ms
    result-cache hit).  The width is found as shutil.get_terminal_size finds it."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         width if width is not None else _terminal_columns() - 2)


def _terminal_columns() -> int:
    """$COLUMNS, else the width of the terminal on stdout, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class UserErrorParser(argparse.ArgumentParser):
    """argparse, but a bad command line is a user error: exit 1 (exit 2 means a bug)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")

#: Preprocessor flags that reach the frontend; each takes a value, joined or separate.
FRONTEND_FLAGS = ("-I", "-D", "-U")


def frontend_cpp_args(flags: Sequence[str]) -> list[str]:
    """The ``-I``/``-D``/``-U`` flags of a compiler command line, each joined to its value."""
    out, k = [], 0
    flags = list(flags)
    while k < len(flags):
        arg = flags[k]
        if arg in FRONTEND_FLAGS and k + 1 < len(flags):
            out.append(arg + flags[k + 1])
            k += 2
            continue
        if arg[:2] in FRONTEND_FLAGS and len(arg) > 2:
            out.append(arg)
        k += 1
    return out


def compiler_preprocessing(flags: Sequence[str]) -> bool | None:
    """Whether a gfortran command line forces preprocessing on (``-cpp``) or off (``-nocpp``);
    None when it leaves it to the suffix.  The last one wins, as with gfortran."""
    found = None
    for arg in flags:
        if arg in ("-cpp", "-nocpp"):
            found = arg == "-cpp"
    return found


def compiler_fixed_line_length(flags: Sequence[str]) -> int | None:
    """The fixed-form line length a gfortran command line gives (``-ffixed-line-length-N``,
    ``-ffixed-line-length-none``: 0, no limit); None when it gives none.  The last one wins."""
    found = None
    for arg in flags:
        if arg.startswith("-ffixed-line-length-"):
            value = arg.removeprefix("-ffixed-line-length-")
            if value == "none" or value.isdigit():
                found = 0 if value == "none" else int(value)
    return found


#: A word where a directive's ``translate`` goes: after ``#pragma``, or after a Fortran ``$``
#: sentinel (``!$``, fixed form ``c$`` and ``*$``).
_SENTINEL_WORD = {"c": LazyPattern(r"#\s*pragma\s+(\w+)"),
                  "fortran": LazyPattern(r"^[ \t]*[!cC*]\$[ \t]*(\w+)", re.M)}


def has_directives(text: str, language: str, models: tuple[str, ...] = ()) -> bool:
    """Whether a source may hold translate regions, or a misspelled sentinel the translator
    warns about (a cheap test before parsing); with `models` (``--directives``), OpenMP
    (``omp``) and OpenACC (``acc``) directives count too."""
    words = {{"openmp": "omp", "openacc": "acc"}.get(m) for m in models} - {None}
    if language == "c":
        if "#" not in text or "pragma" not in text:
            return False
    elif "$" not in text:
        return False
    return any(near_miss_sentinel(m.group(1)) or m.group(1).lower() in words
               for m in _SENTINEL_WORD["c" if language == "c" else "fortran"].finditer(text))
