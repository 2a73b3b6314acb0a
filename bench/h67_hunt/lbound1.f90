program lbound1
  implicit none
  integer, parameter :: n = 10, m = 3
  real(8) :: a(n, m), b(n, m), c(0:n-1), u(-1:n+2), v(n)
  real(8), allocatable :: w(:), z(:)
  integer :: i, j
  allocate(w(0:n+1), z(2:n+3))
  do j = 1, m
    do i = 1, n
      b(i, j) = dble(i * 10 + j)
    end do
  end do
  do i = 0, n - 1
    c(i) = dble(i) + 0.5d0
  end do
  do i = -1, n + 2
    u(i) = dble(i * i)
  end do
  do i = 0, n + 1
    w(i) = dble(3 * i)
  end do
  z = 0.0d0
  !$translate kernel lb1
  do j = 1, m
    a(:, j) = b(:, j) * c
  end do
  v = u(1:n) - u(0:n-1) + u(2:n+1)
  z(2:n+3) = w
  !$translate end kernel
  write(*, '(4ES24.16)') a, v, z
end program lbound1
