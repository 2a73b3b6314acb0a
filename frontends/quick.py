"""What the built-in frontends can tell from a file's text alone, before a parser is imported:
a Fortran file's source form and line length, and whether a file can hold anything to
translate at all.

Most files of a real program hold no region: a build that runs ``translate`` on every file
(the compiler wrappers, CMake, make) should not pay for importing the parsers, the IR and isl
on each of them.  `nothing_to_translate` answers only where the answer is certain from the
text: each frontend finds regions, data directives and OpenMP/OpenACC claims only at a
sentinel (``!$translate``, ``c$omp``, ``#pragma acc`` ...), warns of near misses only at one,
and reads other files only through ``include``/``#include``.  Where it answers True, the
frontend's own parse of the file would find nothing and warn of nothing
(`tests/unit/test_passthrough.py` checks both paths agree on every sample of the repository,
with and without their sentinels).
"""

from __future__ import annotations

from typing import Any

from translator.diagnostics import FrontendError

#: Suffixes of fixed-form Fortran (compared in lower case); other Fortran files are free form.
FIXED_SUFFIXES = (".f", ".for", ".f77", ".ftn", ".fpp")

#: gfortran's default fixed-form line length (``-ffixed-line-length-72``): columns past it
#: are ignored (card sequence numbers in columns 73-80).
FIXED_LINE_LENGTH = 72


def source_form(path: str, options: dict[str, Any]) -> str:
    """"free" or "fixed": `options["form"]` if given, else by the file suffix."""
    form = options.get("form")
    if form is not None:
        if str(form).lower() not in ("free", "fixed"):
            raise FrontendError(f"unknown Fortran source form {form!r} (expected free or fixed)")
        return str(form).lower()
    lower = path.lower()
    if lower.endswith(FIXED_SUFFIXES):
        return "fixed"
    return "free"


def fixed_line_length(options: dict[str, Any]) -> int | None:
    """The fixed-form line length of `options` (``--fixed-line-length``); None: no limit."""
    width = options.get("fixed_line_length", FIXED_LINE_LENGTH)
    return None if width in (None, 0, "none") else int(width)


def nothing_to_translate(language: str, path: str, text: str, options: dict[str, Any]) -> bool:
    """Whether the built-in frontend of `language` certainly finds no region, no data
    directive and nothing to warn of in `text` (the file's text as the frontends see it:
    no byte order mark, LF line ends).  False means "maybe": the frontend must read it."""
    if language == "c":
        # regions, data directives, claims and near-miss warnings all start at '#pragma'
        return "pragma" not in text
    if language != "fortran":
        return False
    # every sentinel and near miss holds '$'; an include may bring one in (and makes the
    # file preprocessed)
    if "$" in text or "include" in text.lower():
        return False
    try:
        form = source_form(path, options)
    except FrontendError:
        return False          # the frontend says so, at its place
    width = fixed_line_length(options)
    # a fixed-form line past its length may draw the line-truncation warning
    return form == "free" or width is None or all(len(line) <= width
                                                  for line in text.split("\n"))
