program sec2
  implicit none
  integer, parameter :: nx = 10, ny = 8, nz = 3
  real(8) :: f(0:nx+1, 0:ny+1, nz), g(nx, ny, nz), h(nx)
  integer :: i, j, k
  do k = 1, nz
    do j = 0, ny + 1
      do i = 0, nx + 1
        f(i, j, k) = dble(i + 2 * j + 7 * k)
      end do
    end do
  end do
  !$translate kernel s2
  do k = 1, nz
    do j = 1, ny
      g(:, j, k) = f(2:nx+1, j, k) - 2.0d0 * f(1:nx, j, k) + f(0:nx-1, j, k) &
                 + f(1:nx, j+1, k) - f(1:nx, j-1, k)
    end do
  end do
  f(1:nx, 1:ny, 1) = g(:, :, 2)
  h = g(:, ny, nz) + f(1:nx, 0, 2)
  !$translate end kernel
  write(*, '(4ES24.16)') g(:, :, 1), f(:, :, 1), h
end program sec2
