"""Array intrinsics of derived-type components (h67 differential hunt over modern Fortran).
Before, ``sum(f%v(:, j))``, ``maxval(f%u)`` or ``dot_product(f%u(:, j), f%v(:, j))`` in a
region stopped the whole file with "sum: the argument is not an array" (an OpenMP loop holding
one too: exit 1, nothing written).  Now a component section is reduced like any array
section."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

COMPONENTS = """\
! translate-test: translate=--directives=openmp,translate rtol=1e-13
module fields_m
  implicit none
  type fld_t
    real(8), allocatable :: u(:, :), v(:, :)
    real(8) :: dt
  end type
end module fields_m
program comp_red
  use fields_m
  implicit none
  integer, parameter :: nx = 24, ny = 10
  type(fld_t) :: f
  real(8) :: s, cs(ny), mx(ny), dp(ny), top
  integer :: i, j
  allocate(f%u(nx, ny), f%v(nx, ny))
  f%dt = 0.25d0
  do j = 1, ny
    do i = 1, nx
      f%u(i, j) = sin(dble(i * j)) * 0.5d0
      f%v(i, j) = dble(i + j) * 0.01d0
    end do
  end do
  s = 0.0d0
  !$omp target teams distribute parallel do reduction(+:s) map(to: f%v)
  do j = 1, ny
    s = s + sum(f%v(:, j))
  end do
  !$translate kernel cr
  do j = 1, ny
    cs(j) = sum(f%u(2:nx-1, j)) * f%dt
    mx(j) = maxval(f%u(:, j))
    dp(j) = dot_product(f%u(:, j), f%v(:, j))
  end do
  top = maxval(f%u)
  !$translate end kernel
  write(*, '(4ES24.16)') cs, mx, dp
  write(*, '(2ES24.16)') s, top
end program comp_red
"""


def test_reductions_of_component_sections_match(tmp_path: Path) -> None:
    src = tmp_path / "comp_red.f90"
    src.write_text(COMPONENTS)
    check_sample(src, tmp_path)
