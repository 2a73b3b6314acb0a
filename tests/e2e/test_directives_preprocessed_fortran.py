"""A preprocessed Fortran file (``.F90``) whose only directives are OpenMP or OpenACC ones (h57
differential hunt).  The frontend ran the preprocessor only for a file holding ``$translate``
or an ``include``, or the *model's name* (``$openmp``), never its sentinel (``!$omp``), so such a
file was read as written:

- a macro from the command line (``-DW=2+1``) was read as a variable: exit 0 and other numbers
  (the sum printed 0 instead of 860);
- a ``#define``/``#ifdef`` in the file was refused with "preprocessor directive '#define' in a
  file that is not preprocessed (gfortran preprocesses .F90 ...)", about a ``.F90`` file.

Now the file is read as gfortran reads it, and both match the original."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample

COMMAND_LINE_MACRO = """\
! translate-test: translate=--directives=openmp cppflags=-DW=2+1 translate=-DW=2+1
program macro_weight
  real(8) :: a(40), b(40)
  integer :: i
  do i = 1, 40
    a(i) = i * 0.5d0
  end do
  !$omp parallel do
  do i = 1, 40
    b(i) = a(i) * W
  end do
  print '(es24.16)', sum(b)
end program
"""

FILE_MACROS = """\
! translate-test: translate=--directives=openacc cppflags=-DUSE_LIMITER translate=-DUSE_LIMITER
#define NX 45
#define SQ(x) ((x) * (x))
module prec
  implicit none
  integer, parameter :: wp = kind(1.0d0)
end module prec

program file_macros
  use prec
  implicit none
  real(wp) :: u(NX), f(NX)
  integer :: i
  do i = 1, NX
    u(i) = sin(0.2_wp * i)
  end do
  f = 0
#ifdef USE_LIMITER
  !$acc parallel loop
  do i = 2, NX - 1
    f(i) = max(SQ(u(i + 1) - u(i)), SQ(u(i) - u(i - 1)))
  end do
#else
  !$acc parallel loop
  do i = 2, NX - 1
    f(i) = u(i + 1) - u(i - 1)
  end do
#endif
  print '(2es24.16)', sum(f), f(7)
end program
"""


@pytest.mark.parametrize("name, text", [("macro_weight.F90", COMMAND_LINE_MACRO),
                                        ("file_macros.F90", FILE_MACROS)])
def test_preprocessed_file_with_only_foreign_directives_matches(name: str, text: str,
                                                                tmp_path: Path) -> None:
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)
