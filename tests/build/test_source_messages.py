"""Messages about what the user wrote: integer literals too large for their kind, and
misspelled sentinels and directive keywords (issue 28, item 6 and its friction list)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import write
from translator.cli import main


def translate_err(capsys, tmp_path: Path, name: str, text: str, *flags: str
                  ) -> tuple[int, str]:
    src = write(tmp_path, name, text)
    code = main([str(src), "-o", str(tmp_path / "out"), *flags])
    _, err = capsys.readouterr()
    return code, err.replace(str(src), name)


LITERAL = """\
subroutine f(n, a)
  integer :: n
  integer(8) :: a(n)
  integer :: i
  !$translate kernel k
  do i = 1, n
     a(i) = i + {literal}
  end do
  !$translate end kernel
end subroutine
"""


@pytest.mark.parametrize("literal, text, kind, most", [
    ("3000000000", "3000000000", 4, 2147483647),
    ("99999999999999999999_8", "99999999999999999999", 8, 9223372036854775807),
    ("300_1", "300", 1, 127),
])
def test_fortran_literal_too_large_for_its_kind(capsys, tmp_path: Path, literal: str,
                                                 text: str, kind: int, most: int) -> None:
    code, err = translate_err(capsys, tmp_path, "big.f90", LITERAL.format(literal=literal))
    assert code == 1
    assert err.startswith(f"big.f90:7:17: error: integer literal {text} is too large for its "
                          f"kind (integer({kind}) holds at most {most})\n")
    assert "Overflow" not in err
    assert err.splitlines()[2] == " " * 16 + "^"


def test_c_literal_too_large(capsys, tmp_path: Path) -> None:
    src = ("void f(int n, long *a) {\n#pragma translate kernel k\n"
           "  for (int i = 0; i < n; i++)\n    a[i] = i + 999999999999999999999;\n"
           "#pragma translate end kernel\n}\n")
    code, err = translate_err(capsys, tmp_path, "big.c", src)
    assert code == 1
    assert err.startswith("big.c:4:16: error: ") and "integer literal 999999999999999999999 is "\
        "too large" in err.splitlines()[0]


FREE = """\
subroutine s(n, a)
  !$ use omp_lib
  integer :: n, i
  real(8) :: a(n)
  !$ logical :: translated
{directive}
  !$omp parallel do
  !$acc kernels
  !!$translate kernel disabled
  !$ translated = .true.
  do i = 1, n
     a(i) = 1
  end do
end subroutine
"""


@pytest.mark.parametrize("directive, col, message", [
    ("  !$tranlsate kernel k", 5, "'!$tranlsate' is not a translate directive (did you mean "
     "'!$translate'?); the line is a comment and is ignored"),
    ("  !$TRANSLAT kernel k", 5, "'!$TRANSLAT' is not a translate directive (did you mean "
     "'!$translate'?); the line is a comment and is ignored"),
    ("!$translatekernel k", 3, "'!$translatekernel' is not a translate directive (did you "
     "mean '!$translate'?); the line is a comment and is ignored"),
    ("  !$translate: kernel k", 5, "'!$translate' must be followed by a blank or '&' to be a "
     "translate directive; the line is a comment and is ignored"),
    ("  !$ translate kernel k", 3, "'!$ translate' is not a translate directive: with a blank "
     "after '!$' it is an OpenMP conditional-compilation line (write '!$translate'); it is "
     "ignored"),
])
def test_fortran_near_miss_sentinel(capsys, tmp_path: Path, directive: str, col: int,
                                    message: str) -> None:
    code, err = translate_err(capsys, tmp_path, "s.f90", FREE.format(directive=directive))
    assert code == 0
    assert err.startswith(f"s.f90:6:{col}: warning: {message} [-Wunknown-sentinel]\n")
    assert err.count("warning:") == 1     # omp, acc, conditional compilation, '!!$': silent


def test_no_warning_for_openmp_lines(capsys, tmp_path: Path) -> None:
    code, err = translate_err(capsys, tmp_path, "s.f90", FREE.format(directive=""))
    assert code == 0 and err == ""


def test_fixed_form_near_miss_sentinel(capsys, tmp_path: Path) -> None:
    src = ("      subroutine s(n, a)\n      integer n, i\n      real*8 a(n)\n"
           "c$tranlsate kernel k\nc$omp parallel do\nc$ use omp_lib\n      do i = 1, n\n"
           "         a(i) = 1\n      end do\n      end\n")
    code, err = translate_err(capsys, tmp_path, "s.f", src)
    assert code == 0
    assert err.startswith("s.f:4:3: warning: 'c$tranlsate' is not a translate directive (did "
                          "you mean 'c$translate'?)")
    assert err.count("warning:") == 1


C_SENTINELS = """\
void f(int n, double *a) {
#pragma omp parallel for
#pragma tranlsate kernel k
  for (int i = 0; i < n; i++)
    a[i] = 1;
#  pragma Translate end kernel
#pragma once
#pragma GCC ivdep
}
"""


def test_c_near_miss_pragma(capsys, tmp_path: Path) -> None:
    code, err = translate_err(capsys, tmp_path, "s.c", C_SENTINELS)
    assert code == 0
    lines = [row for row in err.splitlines() if "warning:" in row]
    assert lines == [
        "s.c:3:9: warning: '#pragma tranlsate' is not a translate directive (did you mean "
        "'#pragma translate'?); it is ignored [-Wunknown-sentinel]",
        "s.c:6:11: warning: '#pragma Translate' is not a translate directive (did you mean "
        "'#pragma translate'?); it is ignored [-Wunknown-sentinel]"]
    code, err = translate_err(capsys, tmp_path, "s.c", C_SENTINELS, "-Wno-unknown-sentinel")
    assert code == 0 and err == ""


@pytest.mark.parametrize("directive, start, hint", [
    ("kernal k", "malformed translate directive 'kernal k': invalid syntax", "kernel"),
    ("kernal", "unknown translate directive 'kernal'", "kernel"),
    ("end kernal", "malformed translate directive 'end kernal': invalid syntax", "end kernel"),
    ("updte host(a)", "malformed translate directive 'updte host(a)': invalid syntax",
     "update"),
])
@pytest.mark.parametrize("language", ["fortran", "c"])
def test_misspelled_keyword_suggestion(capsys, tmp_path: Path, directive: str, start: str,
                                       hint: str, language: str) -> None:
    if language == "fortran":
        name, col = "k.f90", 2
        src = (f"subroutine s(n, a)\n integer :: n, i\n real(8) :: a(n)\n !$translate "
               f"{directive}\n do i = 1, n\n  a(i) = 1\n end do\n !$translate end kernel\n"
               "end subroutine\n")
    else:
        name, col = "k.c", 19
        src = (f"void f(int n, double *a) {{\n  int i;\n\n#pragma translate {directive}\n"
               "  for (i = 0; i < n; i++)\n    a[i] = 1;\n#pragma translate end kernel\n}\n")
    code, err = translate_err(capsys, tmp_path, name, src)
    first = err.splitlines()[0]
    assert code == 1
    assert first.startswith(f"{name}:4:{col}: error: {start}")
    assert first.endswith(f"(did you mean {hint!r}?)")
