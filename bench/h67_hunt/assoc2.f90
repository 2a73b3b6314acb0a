program assoc2
  implicit none
  type grid_t
    real(8), allocatable :: u(:, :), v(:, :)
  end type
  type(grid_t) :: g
  integer, parameter :: nx = 20, ny = 6
  integer :: i, j
  allocate(g%u(nx, ny), g%v(nx, ny))
  do j = 1, ny
    do i = 1, nx
      g%u(i, j) = dble(i) / dble(j)
    end do
  end do
  g%v = 0.0d0
  associate (u => g%u, v => g%v, s => g%u(:, 2))
    !$translate kernel as
    do j = 2, ny - 1
      do i = 2, nx - 1
        v(i, j) = u(i, j) * 2.0d0 - s(i)
      end do
    end do
    !$translate end kernel
  end associate
  write(*, '(3ES24.16)') g%v
end program assoc2
