"""Which language a source file is written in, by its suffix (the driver's choice of frontend,
and the build tools' choice of comment syntax and compiler)."""

from __future__ import annotations

FORTRAN_SUFFIXES = (".f", ".for", ".f77", ".f90", ".f95", ".f03", ".f08", ".F", ".FOR",
                    ".F77", ".F90", ".F95", ".F03", ".F08", ".fpp", ".FPP", ".ftn", ".FTN")
C_SUFFIXES = (".c",)


def language_of(path: str) -> str | None:
    """"fortran", "c" or None (not a source the translator handles), by suffix."""
    for suffixes, lang in ((FORTRAN_SUFFIXES, "fortran"), (C_SUFFIXES, "c")):
        if any(path.endswith(s) for s in suffixes):
            return lang
    return None
