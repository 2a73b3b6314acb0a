"""Legality verdicts on loops written in Fortran and C, through the real frontends.

Each case is one loop nest with its mapping pragmas, in both languages, and the expected verdict:
None (legal) or a fragment of the error, which must also point at the statement's line.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from translator.diagnostics import LegalityError, TranslatorError
from translator.driver import translate_text

FORTRAN = """\
subroutine s(n, m, a, b, c, idx, x)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(n), b(n), c(n, m), x
  integer, intent(in) :: idx(n)
  integer :: i, j
  real(8) :: t
  !$translate kernel k
{pragmas}
{body}
  !$translate end kernel
end subroutine
"""

C = """\
void s(int n, int m, double a[n], double b[n], double c[n][m], const int idx[n], double *x)
{{
  int i, j;
  double t;
#pragma translate kernel k
{pragmas}
{body}
#pragma translate end kernel
}}
"""


@dataclass(frozen=True)
class Case:
    name: str
    fortran: str
    c: str
    pragmas: tuple[str, ...]
    expect: str | None          # None: legal; else a fragment of the error message
    line_offset: int = 1        # the offending statement's line within the body


def split(i: str, n: int, outer: str | None = "g.0", inner: str | None = "l.0") -> str:
    tags = [f'outer_tag="{outer}"'] if outer else []
    tags += [f'inner_tag="{inner}"'] if inner else []
    return f'split_iname("{i}", {n}, {", ".join(tags)})'


CASES = [
    Case("elementwise",
         "  do i = 1, n\n     a(i) = 2*b(i)\n  end do",
         "for (i = 0; i < n; i++)\n  a[i] = 2*b[i];",
         (split("i", 64),), None),
    Case("recurrence",
         "  do i = 2, n\n     a(i) = a(i-1) + b(i)\n  end do",
         "for (i = 1; i < n; i++)\n  a[i] = a[i-1] + b[i];",
         (split("i", 64),), "races"),
    Case("anti dependence",
         "  do i = 1, n-1\n     a(i) = a(i+1) + b(i)\n  end do",
         "for (i = 0; i < n-1; i++)\n  a[i] = a[i+1] + b[i];",
         (split("i", 64),), "races"),
    Case("output dependence a(i/2)",
         "  do i = 2, n\n     a(i/2) = b(i)\n  end do",
         "for (i = 0; i < n; i++)\n  a[i/2] = b[i];",
         (split("i", 64),), "races"),
    Case("outer loop carries, inner mapped",
         "  do j = 2, m\n     do i = 1, n\n        c(i, j) = c(i, j-1) + 1\n     end do\n"
         "  end do",
         "for (i = 0; i < n; i++)\n  for (j = 1; j < m; j++)\n    c[i][j] = c[i][j-1] + 1;",
         (split("i", 32),), None, 2),
    Case("carried loop mapped",
         "  do j = 2, m\n     do i = 1, n\n        c(i, j) = c(i, j-1) + 1\n     end do\n"
         "  end do",
         "for (i = 0; i < n; i++)\n  for (j = 1; j < m; j++)\n    c[i][j] = c[i][j-1] + 1;",
         (split("j", 32),), "races", 2),
    Case("wavefront, either loop",
         "  do j = 2, m\n     do i = 2, n\n        c(i, j) = c(i-1, j) + c(i, j-1)\n     end do\n"
         "  end do",
         "for (i = 1; i < n; i++)\n  for (j = 1; j < m; j++)\n    c[i][j] = c[i-1][j] + c[i][j-1];",
         (split("i", 32),), "races", 2),
    Case("distance 4 outside inner chunks of 4",
         "  do i = 5, n\n     a(i) = a(i-4) + 1\n  end do",
         "for (i = 4; i < n; i++)\n  a[i] = a[i-4] + 1;",
         (split("i", 4, outer=None),), None),
    Case("distance 4 inside inner chunks of 8",
         "  do i = 5, n\n     a(i) = a(i-4) + 1\n  end do",
         "for (i = 4; i < n; i++)\n  a[i] = a[i-4] + 1;",
         (split("i", 8, outer=None),), "races"),
    Case("indirect write",
         "  do i = 1, n\n     a(idx(i)) = b(i)\n  end do",
         "for (i = 0; i < n; i++)\n  a[idx[i]] = b[i];",
         (split("i", 64),), "may race"),
    Case("indirect write asserted independent",
         "  do i = 1, n\n     a(idx(i)) = b(i)\n  end do",
         "for (i = 0; i < n; i++)\n  a[idx[i]] = b[i];",
         ('independent("i")', split("i", 64)), None),
    Case("scalar accumulated: a parallel reduction",
         "  do i = 1, n\n     x = x + a(i)\n  end do",
         "for (i = 0; i < n; i++)\n  *x = *x + a[i];",
         (split("i", 64, outer=None),), None),
    Case("accumulated and read in the loop: not a reduction",
         "  do i = 1, n\n     x = x + a(i)\n     b(i) = x\n  end do",
         "for (i = 0; i < n; i++) {\n  *x = *x + a[i];\n  b[i] = *x;\n}",
         (split("i", 64, outer=None),), "races"),
    Case("privatisable scalar",
         "  do i = 1, n\n     t = 2*a(i)\n     b(i) = t + 1\n  end do",
         "for (i = 0; i < n; i++) {\n  t = 2*a[i];\n  b[i] = t + 1;\n}",
         (split("i", 64),), None),
    Case("prefix sum",
         "  do i = 2, n\n     a(i) = a(i-1) + a(i)\n  end do",
         "for (i = 1; i < n; i++)\n  a[i] = a[i-1] + a[i];",
         (split("i", 64),), "races"),
    Case("even and odd halves",
         "  do i = 1, n/2\n     a(2*i) = a(2*i-1)\n  end do",
         "for (i = 0; i < n/2; i++)\n  a[2*i+1] = a[2*i];",
         (split("i", 64),), None),
]


def _source(lang: str, case: Case) -> tuple[str, str]:
    if lang == "fortran":
        pragmas = "\n".join(f"  !$translate {p}" for p in case.pragmas)
        return "cat.f90", FORTRAN.format(pragmas=pragmas, body=case.fortran)
    pragmas = "\n".join(f"#pragma translate {p}" for p in case.pragmas)
    return "cat.c", C.format(pragmas=pragmas, body=case.c)


def _body_line(text: str, lang: str, offset: int) -> int:
    lines = text.splitlines()
    marker = "!$translate" if lang == "fortran" else "#pragma translate"
    last_pragma = max(k for k, line in enumerate(lines) if marker in line and "end" not in line)
    return last_pragma + 2 + offset  # 1-based line of the body's offset-th line


@pytest.mark.parametrize("lang", ["fortran", "c"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_verdict(lang: str, case: Case) -> None:
    path, text = _source(lang, case)
    if case.expect is None:
        translate_text(path, text)
        return
    with pytest.raises(LegalityError) as info:
        translate_text(path, text)
    err = info.value
    assert case.expect in err.message, err.message
    assert err.message.startswith("mapping "), err.message
    assert err.span is not None and err.span.file == path
    want = _body_line(text, lang, case.line_offset)
    assert err.span.line == want, (err.span.line, want, err.render())


INTERCHANGE = {
    "fortran": ("  do j = 2, m\n     do i = 1, n - 1\n        c(i, j) = c(i + 1, j - 1) + 1\n"
                "     end do\n  end do", 'prioritize_loops("i,j")'),
    "c": ("for (i = 1; i < n; i++)\n  for (j = 0; j < m - 1; j++)\n"
          "    c[i][j] = c[i-1][j+1] + 1;", 'prioritize_loops("j,i")'),
}


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_interchange_that_reverses_a_dependence(lang: str) -> None:
    body, pragma = INTERCHANGE[lang]
    path, text = _source(lang, Case("interchange", body, body, (pragma,), None))
    with pytest.raises(LegalityError) as info:
        translate_text(path, text)
    assert "reverses a dependence: iteration" in info.value.message
    assert info.value.span.line == _body_line(text, lang, 2)


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_independent_naming_an_unknown_iname(lang: str) -> None:
    case = Case("x", "  do i = 1, n\n     a(i) = b(i)\n  end do",
                "for (i = 0; i < n; i++)\n  a[i] = b[i];", ('independent("q")',), None)
    path, text = _source(lang, case)
    with pytest.raises(TranslatorError) as info:
        translate_text(path, text)
    assert "independent: unknown iname 'q'" in info.value.message
    pragma_line = next(k for k, line in enumerate(text.splitlines(), 1) if "independent" in line)
    assert info.value.span.file == path and info.value.span.line == pragma_line
