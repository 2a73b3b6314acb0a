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
