"""``integer(int64)`` DO variables in regions (h67 differential hunt over modern Fortran).
An iname is a C ``int``; before, the value of an ``integer(int64)`` DO variable was typed as a
default integer, so ``g(i) = i * 1000000007`` multiplied in 32 bits and converted the wrapped
product (exit 0, -1294967275 for 3000000021), in a region, in an inlined callee and under an
OpenMP reduction alike; ``ishft(j, 33)`` was refused ("exceeds the bit size 32 of
integer(4)").  Now the DO variable's value is converted to its declared kind, and subscripts
and bounds drop the conversion again (the loops still map in parallel)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PRODUCTS = """\
! translate-test: translate=--directives=openmp,translate
module kern_m
  use iso_fortran_env, only: int64
  implicit none
contains
  subroutine fill(n, v)
    integer(int64), intent(in) :: n
    integer(int64), intent(inout) :: v(n)
    integer(int64) :: k
    do k = 1, n
      v(k) = v(k) + k * 2147483647 + k * 100000
    end do
  end subroutine
end module kern_m
program i64loop
  use iso_fortran_env, only: int64, real32
  use kern_m
  implicit none
  integer(int64), parameter :: n = 40_int64
  integer(int64) :: i, h(n), g(n), b(n), s
  real(real32) :: x(n), y(n)
  do i = 1, n
    x(i) = real(i, real32) * 0.1_real32
  end do
  b = 0
  !$translate kernel lp
  do i = 1_int64, n
    h(i) = (i + 70000_int64) * (i + 70000_int64)
    g(i) = i * 1000000007
    y(i) = x(i) * 3.0 + 0.1
  end do
  !$translate end kernel
  !$translate kernel cal
  call fill(n, b)
  !$translate end kernel
  s = 0
  !$omp parallel do reduction(+:s)
  do i = 1, n
    s = s + i * 300000000
  end do
  write(*, '(4I22)') h, g, b, s
  write(*, '(4ES16.7)') y
end program i64loop
"""

SHIFTS = """\
program i64tri
  use iso_fortran_env, only: int64
  implicit none
  integer(int64), parameter :: n = 30
  integer(int64) :: i, j, a(n, n), t(n)
  a = 0
  !$translate kernel tri
  do i = 1, n
    do j = i, n
      a(j, i) = i * j * 1000000 + ishft(j, 33) + mod(i * 3000000000_int64, 7_int64)
    end do
  end do
  !$translate end kernel
  !$translate kernel sec
  do i = 1, n
    t(i) = sum(a(i:n, i)) / n + i * 99999
  end do
  !$translate end kernel
  write(*, '(3I24)') a(:, 1), a(n, :), t
end program i64tri
"""


def test_products_of_int64_do_variables_are_64_bit(tmp_path: Path) -> None:
    src = tmp_path / "i64loop.f90"
    src.write_text(PRODUCTS)
    check_sample(src, tmp_path)


def test_shifts_and_triangular_bounds_of_int64_do_variables(tmp_path: Path) -> None:
    src = tmp_path / "i64tri.f90"
    src.write_text(SHIFTS)
    check_sample(src, tmp_path)
