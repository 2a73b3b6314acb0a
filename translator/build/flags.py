"""Compiler command lines: which arguments the frontend must see (``-I``, ``-D``, ``-U``)."""

from __future__ import annotations

from collections.abc import Sequence

#: Preprocessor flags that reach the frontend; each takes a value, joined or separate.
FRONTEND_FLAGS = ("-I", "-D", "-U")

FORTRAN_SUFFIXES = (".f", ".for", ".f77", ".f90", ".f95", ".f03", ".f08", ".F", ".FOR",
                    ".F77", ".F90", ".F95", ".F03", ".F08", ".fpp", ".FPP")
C_SUFFIXES = (".c",)


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


def language_of(path: str) -> str | None:
    """"fortran", "c" or None (not a source the translator handles), by suffix."""
    for suffixes, lang in ((FORTRAN_SUFFIXES, "fortran"), (C_SUFFIXES, "c")):
        if any(path.endswith(s) for s in suffixes):
            return lang
    return None


def has_directives(text: str, language: str) -> bool:
    """Whether a source may hold translate regions (a cheap test before parsing)."""
    if language == "c":
        return "translate" in text and "#" in text and "pragma" in text
    return "$translate" in text.lower()
