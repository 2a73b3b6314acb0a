"""A region calling a function of the program, given to the device by a register_function
pragma: the original calls the Fortran or C function, the translation calls the OpenCL one."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import FrontendError
from translator.driver import translate_text

PRAGMA = ('register_function("sq", "double sq(double x) {{ return x * x + 1.0; }}", '
          '["float64"], "float64")')

FORTRAN = """\
real(8) function sq(x)
  real(8), intent(in) :: x
  sq = x * x + 1.0d0
end function

subroutine f(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  real(8), external :: sq
  integer :: i
  !$translate kernel k
{pragma}
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     b(i) = 2 * sq(a(i))
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 200
  real(8) :: a(n), b(n)
  integer :: i
  do i = 1, n
     a(i) = 0.25d0 * i
  end do
  call f(n, a, b)
  print '(3es25.16)', b(1), b(n/2), sum(b)
end program
"""

C = """\
#include <stdio.h>
static double sq(double x) {{ return x * x + 1.0; }}

void f(int n, const double a[n], double b[n])
{{
#pragma translate kernel k
{pragma}
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    b[i] = 2 * sq(a[i]);
#pragma translate end kernel
}}

int main(void)
{{
  double a[200], b[200], s = 0.0;
  for (int i = 0; i < 200; i++) a[i] = 0.25 * (i + 1);
  f(200, a, b);
  for (int i = 0; i < 200; i++) s += b[i];
  printf("%.17g %.17g %.17g\\n", b[0], b[99], s);
  return 0;
}}
"""


def _write(tmp: Path, lang: str, with_pragma: bool) -> Path:
    template, sentinel, name = ((FORTRAN, "  !$translate ", "uf.f90") if lang == "fortran"
                                else (C, "#pragma translate ", "uf.c"))
    pragma = sentinel + PRAGMA.replace("{{", "{").replace("}}", "}") if with_pragma else ""
    src = tmp / name
    src.write_text(template.format(pragma=pragma))
    return src


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_registered_function_matches_the_original(lang: str, tmp_path: Path) -> None:
    src = _write(tmp_path, lang, True)
    (tmp_path / "w").mkdir()
    check_sample(src, tmp_path / "w")


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_undeclared_function_of_the_file_is_inlined(lang: str, tmp_path: Path) -> None:
    """Without the pragma, the function's source (in the same file) is inlined."""
    src = _write(tmp_path, lang, False)
    (tmp_path / "w").mkdir()
    check_sample(src, tmp_path / "w")


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_wrong_argument_count_for_a_declared_function(lang: str, tmp_path: Path) -> None:
    src = _write(tmp_path, lang, True)
    text = src.read_text().replace("sq(a(i))", "sq(a(i), a(i))").replace("sq(a[i])",
                                                                          "sq(a[i], a[i])")
    src.write_text(text)
    with pytest.raises(FrontendError) as info:
        translate_text(str(src), text)
    assert info.value.message == ("sq takes 1 argument(s) (as its register_function pragma "
                                  "declares), not 2")
    line = next(k for k, ln in enumerate(text.splitlines(), 1) if "sq(a" in ln)
    assert info.value.span.file == str(src) and info.value.span.line == line
