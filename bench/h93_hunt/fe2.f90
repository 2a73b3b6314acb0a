! translate-test: translate=--directives=openmp,openacc,translate rtol=1e-13
! A finite-element mesh in a derived type (connectivity and coordinates as components),
! OpenACC parallel loops gathering nodal values per element, an atomic assembly, and a
! region the translator maps by itself (no directive): a lumped mass through a permutation.
module mesh_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type mesh_t
    integer :: ne, nn
    integer, allocatable :: conn(:, :)
    integer, allocatable :: perm(:)
    real(dp), allocatable :: x(:), y(:)
  end type mesh_t
contains
  subroutine areas(m, area)
    type(mesh_t), intent(in) :: m
    real(dp), intent(out) :: area(:)
    integer :: e
    real(dp) :: x1, x2, x3, y1, y2, y3
    !$acc parallel loop private(x1, x2, x3, y1, y2, y3)
    do e = 1, m%ne
      x1 = m%x(m%conn(1, e))
      x2 = m%x(m%conn(2, e))
      x3 = m%x(m%conn(3, e))
      y1 = m%y(m%conn(1, e))
      y2 = m%y(m%conn(2, e))
      y3 = m%y(m%conn(3, e))
      area(e) = 0.5_dp * abs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1))
    end do
  end subroutine areas

  subroutine lump(m, area, mass)
    type(mesh_t), intent(in) :: m
    real(dp), intent(in) :: area(:)
    real(dp), intent(inout) :: mass(:)
    integer :: e, n
    !$acc parallel loop
    do e = 1, m%ne
      do n = 1, 3
        !$acc atomic update
        mass(m%conn(n, e)) = mass(m%conn(n, e)) + area(e) / 3.0_dp
      end do
    end do
  end subroutine lump

  subroutine reorder(m, mass, out)
    type(mesh_t), intent(in) :: m
    real(dp), intent(in) :: mass(:)
    real(dp), intent(out) :: out(:)
    integer :: i
    !$translate kernel
    do i = 1, m%nn
      out(i) = mass(m%perm(i)) * 2.0_dp
    end do
    !$translate end kernel
  end subroutine reorder
end module mesh_mod

program fe2
  use mesh_mod
  implicit none
  integer, parameter :: nx = 30, ny = 20
  type(mesh_t) :: m
  real(dp), allocatable :: area(:), mass(:), out(:)
  integer :: i, j, e, v
  m%nn = (nx + 1) * (ny + 1)
  m%ne = 2 * nx * ny
  allocate(m%conn(3, m%ne), m%perm(m%nn), m%x(m%nn), m%y(m%nn))
  allocate(area(m%ne), mass(m%nn), out(m%nn))
  do j = 0, ny
    do i = 0, nx
      v = 1 + i + j * (nx + 1)
      m%x(v) = i + 0.1_dp * sin(1.0_dp * j)
      m%y(v) = j + 0.1_dp * cos(1.0_dp * i)
      m%perm(v) = m%nn + 1 - v
    end do
  end do
  e = 0
  do j = 0, ny - 1
    do i = 0, nx - 1
      v = 1 + i + j * (nx + 1)
      e = e + 1
      m%conn(:, e) = [v, v + 1, v + nx + 2]
      e = e + 1
      m%conn(:, e) = [v, v + nx + 2, v + nx + 1]
    end do
  end do
  call areas(m, area)
  mass = 0.0_dp
  call lump(m, area, mass)
  call reorder(m, mass, out)
  write(*, '(4ES24.16)') sum(area), sum(mass), out(1), out(m%nn / 3)
end program fe2
