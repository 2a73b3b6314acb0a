! translate-test: translate=--directives=openmp,openacc,translate
! Regions inside an ASSOCIATE construct using its names: associate (u => grid%u), a scalar
! name for a component, and a BLOCK at the top of a region.
module heat_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  type grid_t
    integer :: nx, ny
    real(dp) :: alpha
    real(dp), allocatable :: u(:, :), unew(:, :)
  end type grid_t
contains
  subroutine step(grid)
    type(grid_t), intent(inout) :: grid
    integer :: i, j
    associate (u => grid%u, un => grid%unew, a => grid%alpha, nx => grid%nx)
      !$omp target teams distribute parallel do collapse(2)
      do j = 2, grid%ny - 1
        do i = 2, nx - 1
          un(i, j) = u(i, j) + a * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) &
                                    - 4 * u(i, j))
        end do
      end do
      !$translate kernel copyback
      do j = 2, grid%ny - 1
        do i = 2, nx - 1
          u(i, j) = un(i, j)
        end do
      end do
      !$translate end kernel
    end associate
  end subroutine step
end module heat_mod

program assoc1
  use heat_mod
  implicit none
  type(grid_t) :: g
  integer :: i, j, s
  g%nx = 24
  g%ny = 18
  g%alpha = 0.2_dp
  allocate(g%u(g%nx, g%ny), g%unew(g%nx, g%ny))
  do j = 1, g%ny
    do i = 1, g%nx
      g%u(i, j) = cos(0.4_dp * i) * sin(0.3_dp * j)
    end do
  end do
  g%unew = g%u
  do s = 1, 4
    call step(g)
  end do
  write(*, '(4ES24.16)') g%u(::5, ::4)
end program assoc1
