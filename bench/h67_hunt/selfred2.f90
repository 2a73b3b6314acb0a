program selfred2
  implicit none
  integer, parameter :: n = 12, m = 4
  real(8) :: a(n, m), x(n)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(i * j) - 20.0d0
    end do
  end do
  do i = 1, n
    x(i) = dble(i) - 6.5d0
  end do
  !$translate kernel wsum
  where (x > 0.0d0) x = x / sum(x)
  !$translate end kernel
  !$translate kernel wcol
  do j = 1, m
    where (a(:, j) < 0.0d0)
      a(:, j) = a(:, j) - minval(a(:, j))
    end where
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') a, x
end program selfred2
