program where1
  implicit none
  integer, parameter :: n = 30, m = 5
  real(8) :: a(n, m), b(n, m), c(n)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = sin(dble(i * j))
      b(i, j) = 0.0d0
    end do
  end do
  !$translate kernel wh
  do j = 1, m
    where (a(:, j) > 0.0d0)
      b(:, j) = sqrt(a(:, j))
    elsewhere (a(:, j) < -0.5d0)
      b(:, j) = -1.0d0
    elsewhere
      b(:, j) = a(:, j) * 2.0d0
    end where
  end do
  !$translate end kernel
  c = 0.0d0
  !$translate kernel wh2
  where (a(:, 2) > 0.2d0) c = a(:, 2) + a(:, 3)
  !$translate end kernel
  write(*, '(4ES24.16)') b, c
end program where1
