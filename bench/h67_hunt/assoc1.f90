program assoc1
  implicit none
  type grid_t
    real(8), allocatable :: u(:, :), v(:, :)
    integer :: nx, ny
  end type
  type(grid_t) :: g
  integer :: i, j
  g%nx = 33; g%ny = 9
  allocate(g%u(g%nx, g%ny), g%v(g%nx, g%ny))
  do j = 1, g%ny
    do i = 1, g%nx
      g%u(i, j) = dble(i) / dble(j)
      g%v(i, j) = 0.0d0
    end do
  end do
  call step(g%nx, g%ny, g%u, g%v)
  write(*, '(3ES24.16)') g%v
contains
  subroutine step(nx, ny, u, v)
    integer, intent(in) :: nx, ny
    real(8), intent(in) :: u(:, :)
    real(8), intent(inout) :: v(:, :)
    integer :: i, j
    !$translate kernel st
    do j = 2, ny - 1
      do i = 2, nx - 1
        associate (c => u(i, j), e => u(i + 1, j), w => u(i - 1, j))
          v(i, j) = c * 2.0d0 - 0.5d0 * (e + w)
        end associate
      end do
    end do
    !$translate end kernel
  end subroutine
end program assoc1
