program dconc2
  implicit none
  integer, parameter :: n = 20, m = 7
  real(8) :: a(n, m), b(n, m), c(m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(i) - dble(j) * 2.5d0
    end do
  end do
  b = 0.0d0
  !$translate kernel dc2
  do concurrent (j = 1:m)
    c(j) = 0.0d0
    do concurrent (i = 2:n-1, a(i, j) > 0.0d0)
      b(i, j) = 0.25d0 * (a(i-1, j) + 2.0d0 * a(i, j) + a(i+1, j))
    end do
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b, c
end program dconc2
