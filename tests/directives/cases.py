"""The labelled directive test set: small routines with OpenMP or OpenACC directives, each
labelled ``racy`` (the directive's claim is false: the translator must refuse it) or
``race_free`` (the translator must translate it, and the result must match the original, or
refuse it with a reason that docs/porting-directives.md lists).

Every routine has the same arguments, so that one driver program per language calls them all
(tests/directives/harness.py writes it)::

    Fortran: subroutine NAME(n, m, a, b, c, u, v, ix, s, k)   a, b, c(n); u, v(m, m); ix(n)
    C:       void NAME(int n, int m, double a[n], double b[n], double c[n],
                       double u[m][m], double v[m][m], int ix[n], double *s, int *k)

The driver fills them the same way in both languages: small multiples of 1/8 and 1/4 (every
sum and product in these loops is exact, whatever the order), ``ix`` an index array with
duplicates (values in the first half of ``a``), then prints a checksum of each argument.
A case's ``body`` is the routine's declarations and statements; ``hint`` (racy cases) is text
the diagnostic must contain, usually the clause that fixes the loop.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.directives.cases_c import C_CASES
from tests.directives.cases_fortran import FORTRAN_CASES


@dataclass(frozen=True)
class Case:
    """One labelled routine."""

    name: str
    language: str          # "fortran" or "c"
    label: str             # "racy" or "race_free"
    family: str
    body: str
    hint: str = ""
    #: gcc/gfortran -fopenmp/-fopenacc refuse it, so the syntax check skips it: not a valid
    #: program (default(none) with a variable missing), or valid OpenMP 5 that gfortran 12
    #: does not take (collapse of a triangular nest)
    invalid_directive: bool = False


def _cases(language: str, rows: list[tuple]) -> list[Case]:
    out = []
    for row in rows:
        name, label, family, body, *rest = row
        hint = rest[0] if rest else ""
        invalid = len(rest) > 1 and rest[1]
        out.append(Case(name=name, language=language, label=label, family=family,
                        body=body, hint=hint, invalid_directive=invalid))
    return out


CASES: list[Case] = _cases("fortran", FORTRAN_CASES) + _cases("c", C_CASES)
