"""Fortran bit and model intrinsics (issue 28): popcnt, poppar, ishft, ibits, exponent,
fraction, spacing, with gfortran semantics on edge values (negative numbers, the sign bit,
shifts by the whole bit size, zeros, subnormals, huge, infinities, NaN).  Translated and run
on the CPU OpenCL device against the original program: the outputs must be identical.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import FrontendError
from translator.driver import translate_text

BITS = """subroutine compute(n, k, l, s, kb, lb)
  implicit none
  integer, intent(in) :: n
  integer, intent(in) :: k(n), s(n)
  integer(8), intent(in) :: l(n)
  integer, intent(out) :: kb(n, 6)
  integer(8), intent(out) :: lb(n, 3)
  integer :: i
  !$translate kernel
  do i = 1, n
     kb(i, 1) = popcnt(k(i)) + 100 * poppar(k(i))
     kb(i, 2) = ishft(k(i), s(i))
     kb(i, 3) = ishft(k(i), 3) + ishft(k(i), -31) + ishft(k(i), 32)
     kb(i, 4) = ibits(k(i), mod(i, 8), mod(i, 25))
     kb(i, 5) = ibits(k(i), 0, 32) - ibits(k(i), 31, 1) + popcnt(l(i)) + poppar(l(i))
     kb(i, 6) = ibits(k(i), 32 - mod(i, 32), mod(i, 32))   ! (gfortran gives 0 for len = 32)
     lb(i, 1) = ishft(l(i), s(i) * 2)
     lb(i, 2) = ibits(l(i), mod(i, 64), 64 - mod(i, 64))
     lb(i, 3) = ishft(l(i), -63) + ishft(l(i), 63)
  end do
  !$translate end kernel
end subroutine compute

program main
  implicit none
  integer, parameter :: n = 40
  integer :: k(n), s(n), kb(n, 6), i
  integer(8) :: l(n), lb(n, 3)
  do i = 1, n
     k(i) = (i - 20) * 104729 + merge(-huge(1) - 1, 0, i == 3) + merge(huge(1), 0, i == 4)
     l(i) = (i - 17) * 9876543210_8 + merge(-huge(1_8) - 1_8, 0_8, i == 5)
     s(i) = i - 20 - merge(12, 0, i == 1) + merge(12, 0, i == n)
  end do
  call compute(n, k, l, s, kb, lb)
  do i = 1, n
     print '(i3, 6i12, 3i22)', i, kb(i, :), lb(i, :)
  end do
end program main
"""

MODEL = """subroutine compute(n, x, s, ke, xf, sf)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real, intent(in) :: s(n)
  integer, intent(out) :: ke(n, 2)
  real(8), intent(out) :: xf(n, 2)
  real, intent(out) :: sf(n, 2)
  integer :: i
  !$translate kernel
  do i = 1, n
     ke(i, 1) = exponent(x(i))
     ke(i, 2) = exponent(s(i))
     xf(i, 1) = fraction(x(i))
     xf(i, 2) = spacing(x(i))
     sf(i, 1) = fraction(s(i))
     sf(i, 2) = spacing(s(i))
  end do
  !$translate end kernel
end subroutine compute

program main
  use, intrinsic :: ieee_arithmetic
  implicit none
  integer, parameter :: n = 16
  real(8) :: x(n), xf(n, 2)
  real :: s(n), sf(n, 2)
  integer :: ke(n, 2), i
  x = [0d0, -0d0, 1d0, -3.5d0, tiny(1d0) / 8, -tiny(1d0), huge(1d0), -huge(1d0), &
       ieee_value(1d0, ieee_positive_inf), ieee_value(1d0, ieee_negative_inf), &
       ieee_value(1d0, ieee_quiet_nan), 0.1d0, 1d300, -7d-300, 2d0**(-1030), 12345.678d0]
  s = [0.0, -0.0, 1.0, -3.5, tiny(1.0) * 2, -tiny(1.0), huge(1.0), -huge(1.0), &
       ieee_value(1.0, ieee_positive_inf), ieee_value(1.0, ieee_negative_inf), &
       ieee_value(1.0, ieee_quiet_nan), 0.1, 1e30, -7e-30, 2.0**(-120), 12345.678]
  call compute(n, x, s, ke, xf, sf)
  do i = 1, n
     print '(i3, 2i12, 2es26.17e3, 2es16.8e2)', i, ke(i, :), xf(i, :), sf(i, :)
  end do
end program main
"""


@pytest.mark.parametrize("name, text", [("bits.f90", BITS), ("model.f90", MODEL)])
def test_intrinsics_run_like_the_original(tmp_path: Path, name: str, text: str) -> None:
    """Each was refused by name ("cannot be translated")."""
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)


REGION = """subroutine f(n, k)
  integer, intent(in) :: n
  integer, intent(inout) :: k(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     k(i) = CALL
  end do
  !$translate end kernel
end subroutine
"""


@pytest.mark.parametrize("call, message", [
    ("ishft(k(i), 33)", "intrinsic ishft: |shift| 33 exceeds the bit size 32 of integer(4)"),
    ("ibits(k(i), 30, 3)", "intrinsic ibits: pos 30 and len 3 do not lie within the 32 bits "
                           "of integer(4)"),
    ("exponent(k(i))", "intrinsic exponent: argument k(i) is integer, not real"),
    ("popcnt(1.5)", "intrinsic popcnt: argument 1.5 is real, not integer"),
])
def test_bad_arguments_are_errors_at_the_call(call: str, message: str) -> None:
    with pytest.raises(FrontendError) as err:
        translate_text("m.f90", REGION.replace("CALL", call))
    assert err.value.message == message
    assert (err.value.span.line, err.value.span.col) == (7, 13)
