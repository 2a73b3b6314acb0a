"""Integer powers (issue 28 item 3): exact in the integer type, with Fortran semantics for negative
exponents (1**-k = 1, (-1)**-k = +-1, 0 otherwise, also 0**-k at run time as gfortran), constants
folded and checked for overflow.  Translated and run on the CPU OpenCL device against the
original program: the outputs must be identical.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import FrontendError
from translator.driver import translate_text

PROGRAM = """subroutine compute(n, m, k, l, r)
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: m(n)
  integer, intent(out) :: k(n, 6)
  integer(8), intent(out) :: l(n, 4)
  integer(8), intent(in) :: r
  integer :: i
  !$translate kernel
  do i = 1, n
     k(i, 1) = m(i)**(-i)
     k(i, 2) = m(i)**(-1) + 10 * m(i)**(-2)
     k(i, 3) = m(i)**i
     k(i, 4) = m(i)**5 - m(i)**2
     k(i, 5) = (-1)**(-i) + 2**(-3) + (-1)**(-3) + 1**(-7)
     k(i, 6) = m(i)**0 + (m(i) + 3)**mod(i, 4)
     l(i, 1) = 3_8**(38 + mod(i, 2))
     l(i, 2) = 3_8**39 - r**i
     l(i, 3) = m(i)**(i + 20_8)
     l(i, 4) = (-r)**(i + 30)
  end do
  !$translate end kernel
end subroutine compute

program main
  implicit none
  integer, parameter :: n = 12
  integer :: m(n), k(n, 6), i
  integer(8) :: l(n, 4)
  m = [0, 1, -1, 2, -2, 3, -3, 7, 0, 1, -1, 5]
  call compute(n, m, k, l, 3_8)
  do i = 1, n
     print '(i3, 6i12, 4i22)', i, k(i, :), l(i, :)
  end do
end program main
"""


def test_integer_powers_run_like_the_original(tmp_path: Path) -> None:
    """3_8**39 lost its low digits and m**(-i) gave 1 for m = 2 (a rounded double pow)."""
    src = tmp_path / "ipow.f90"
    src.write_text(PROGRAM)
    out = check_sample(src, tmp_path)
    assert "4052555153018976267" in out


REGION = """subroutine f(n, l)
  integer, intent(in) :: n
  integer(8), intent(out) :: l(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     l(i) = i + EXPR
  end do
  !$translate end kernel
end subroutine
"""


@pytest.mark.parametrize("expr, message, col", [
    ("2_8**63", "arithmetic overflow in a constant expression: 2**63 = 9223372036854775808 "
                "exceeds the range of integer(8)", 20),
    ("2**31", "arithmetic overflow in a constant expression: 2**31 = 2147483648 exceeds the "
              "range of integer(4)", 18),
    ("(-3)**(-1) + 0**(-2)", "division by zero in a constant expression: 0**(-2)", 31),
    ("(huge(1_8) + 1_8)", "arithmetic overflow in a constant expression: 9223372036854775807 + 1 "
                        "= 9223372036854775808 exceeds the range of integer(8)", 28),
])
def test_constant_overflow_is_an_error_at_its_location(expr: str, message: str, col: int):
    """gfortran rejects these constants; they were accepted (2_8**63 as a rounded double)."""
    with pytest.raises(FrontendError) as err:
        translate_text("p.f90", REGION.replace("EXPR", expr))
    assert err.value.message == message
    assert (err.value.span.line, err.value.span.col) == (7, col)


REAL_PROGRAM = """subroutine compute(n, x, y, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n, 5)
  real, intent(out) :: s(n, 3)
  integer :: i
  integer(8) :: k
  !$translate kernel
  do i = 1, n
     k = i - 20
     y(i, 1) = x(i)**i
     y(i, 2) = x(i)**(-i) + x(i)**(i - 25)
     y(i, 3) = x(i)**k
     y(i, 4) = x(i)**3 + x(i)**(-4) + x(i)**8 + x(i)**16
     y(i, 5) = (-x(i))**(i + 7) - x(i)**(2 * i + 300)
     s(i, 1) = real(x(i))**(i + 3)
     s(i, 2) = real(x(i))**(-i) + real(x(i))**k
     s(i, 3) = real(x(i))**4 * real(x(i))**(-3)
  end do
  !$translate end kernel
end subroutine compute

program main
  implicit none
  integer, parameter :: n = 40
  real(8) :: x(n), y(n, 5)
  real :: s(n, 3)
  integer :: i
  x = [(1.0d0 + i * 0.0137d0, i = 1, n)]
  x(7) = 0.0d0
  x(8) = -0.75d0
  call compute(n, x, y, s)
  do i = 1, n
     print '(i3, 5es26.17e3, 3es16.8e2)', i, y(i, :), s(i, :)
  end do
end program main
"""


def test_real_to_integer_powers_round_like_gfortran(tmp_path: Path) -> None:
    """x**n with an integer n is repeated squaring in gfortran (libgcc's powi for integer(4),
    libgfortran's for integer(8)); the kernel called pow/pown, which round otherwise, and
    computed real(4)**n in double."""
    src = tmp_path / "rpow.f90"
    src.write_text(REAL_PROGRAM)
    check_sample(src, tmp_path)
