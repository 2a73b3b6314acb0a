! translate-test: translate=--directives=openmp,openacc,translate
! Derived-type components that are arrays, as modern codes write them: a mesh type with
! allocatable and fixed arrays, a state passed as a dummy, an OpenACC data region holding
! grid%u across several regions.
module mesh_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type mesh_t
    integer :: nx, ny
    real(dp) :: dx
    real(dp), allocatable :: u(:, :), unew(:, :)
    real(dp) :: coef(3)
  end type mesh_t
contains
  subroutine smooth(grid)
    type(mesh_t), intent(inout) :: grid
    integer :: i, j
    !$acc parallel loop collapse(2)
    do j = 2, grid%ny - 1
      do i = 2, grid%nx - 1
        grid%unew(i, j) = grid%coef(1) * grid%u(i, j) &
             + grid%coef(2) * (grid%u(i - 1, j) + grid%u(i + 1, j)) &
             + grid%coef(3) * (grid%u(i, j - 1) + grid%u(i, j + 1))
      end do
    end do
    !$acc parallel loop collapse(2)
    do j = 2, grid%ny - 1
      do i = 2, grid%nx - 1
        grid%u(i, j) = grid%unew(i, j)
      end do
    end do
  end subroutine smooth
end module mesh_mod

program mesh1
  use mesh_mod
  implicit none
  type(mesh_t) :: grid
  integer :: i, j, step
  grid%nx = 40
  grid%ny = 30
  grid%dx = 1.0_dp / 39
  grid%coef = [0.5_dp, 0.125_dp, 0.125_dp]
  allocate(grid%u(grid%nx, grid%ny), grid%unew(grid%nx, grid%ny))
  do j = 1, grid%ny
    do i = 1, grid%nx
      grid%u(i, j) = sin(0.3_dp * i) * cos(0.2_dp * j)
    end do
  end do
  grid%unew = grid%u
  !$acc data copy(grid%u) copyin(grid%unew)
  do step = 1, 5
    call smooth(grid)
  end do
  !$acc end data
  write(*, '(4ES24.16)') grid%u(1:40:7, 1:30:5)
  write(*, '(ES24.16)') sum(grid%u)
end program mesh1
