"""Module variables renamed on USE (h57 differential hunt: ``use grid_mod, only: w => work,
c => chunk, g => gam``, the way real codes shorten long module names), in a procedure that
also has a local of the module variable's name (``real(dp) :: work(n)``).  Before, the
renamed variable kept its module name: the rewritten source passed ``work`` and ``gam`` (the
local array, or a name not visible there: "Symbol 'scale' has no IMPLICIT type" from gfortran),
the kernel read an undeclared ``g`` ("use of undeclared identifier 'g'" when the program ran),
and ``c%rho`` was refused with "the definition of type 'field_t' (of 'c') is not in reach"
(a module variable brings its type along, even when ONLY does not name it).  Now each name
is the variable it denotes in the procedure, and the program matches the original."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

FORTRAN = """\
! translate-test: translate=--directives=openmp
module grid_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type field_t
    real(dp), allocatable :: rho(:, :)
  end type field_t
  type(field_t) :: chunk
  real(dp), allocatable :: work(:)
  real(dp) :: gam = 1.4_dp
end module grid_mod

subroutine both(n, m)
  use grid_mod, only: dp, w => work, c => chunk, g => gam
  implicit none
  integer, intent(in) :: n, m
  real(dp) :: work(n)          ! a local array of the module array's name
  real(dp) :: gam
  integer :: i, j
  gam = 0.5_dp
  !$omp parallel do
  do i = 1, n
    work(i) = i * gam
  end do
  !$omp parallel do private(i)
  do j = 1, m
    do i = 1, n
      c%rho(i, j) = c%rho(i, j) * g + work(i) + w(i)
    end do
  end do
  !$omp parallel do
  do i = 1, n
    w(i) = work(i) - w(i) * g
  end do
end subroutine both

program names2
  use grid_mod
  implicit none
  integer, parameter :: n = 30, m = 12
  integer :: i, j
  allocate(work(-2:n), chunk%rho(n, m))
  work = [(real(i, dp) * 0.1_dp, i = -2, n)]
  do j = 1, m
    do i = 1, n
      chunk%rho(i, j) = i + 0.01_dp * j
    end do
  end do
  call both(n, m)
  print '(3es24.16)', sum(work), sum(chunk%rho), work(1)
end program names2
"""


def test_renamed_module_variables_match(tmp_path: Path) -> None:
    src = tmp_path / "renamed.f90"
    src.write_text(FORTRAN)
    check_sample(src, tmp_path)
