program shift1
  implicit none
  integer, parameter :: n = 40, m = 7
  real(8) :: a(n), b(n, m), c(n, m), s
  integer :: i, j
  do i = 1, n
    a(i) = dble(i * i) * 0.25d0
  end do
  do j = 1, m
    do i = 1, n
      b(i, j) = dble(i + 3 * j)
      c(i, j) = 0.0d0
    end do
  end do
  s = 1.5d0
  !$translate kernel sm1
  a(2:n-1) = 0.5d0 * (a(1:n-2) + a(3:n))
  !$translate end kernel
  !$translate kernel cols
  do j = 1, m
    c(:, j) = b(:, j) * s
    b(2:n, j) = b(1:n-1, j) + c(2:n, j)
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') a
  write(*, '(4ES24.16)') b(:, 3), c(:, 5)
end program shift1
