program selfred1
  implicit none
  integer, parameter :: n = 12, m = 4
  real(8) :: a(n, m), x(n), y(n), z(n)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(i * j) + 1.0d0
    end do
  end do
  do i = 1, n
    x(i) = dble(i)
    y(i) = 1.0d0 / dble(i)
    z(i) = dble(n - i)
  end do
  !$translate kernel cen
  do j = 1, m
    a(:, j) = a(:, j) - sum(a(:, j)) / dble(n)
  end do
  !$translate end kernel
  !$translate kernel gs
  x = x - dot_product(x, y) * y
  !$translate end kernel
  !$translate kernel nrm
  z(:) = z(:) / maxval(z(:))
  !$translate end kernel
  write(*, '(4ES24.16)') a, x, z
end program selfred1
