program dconc1
  implicit none
  integer, parameter :: n = 16, m = 12
  real(8) :: a(n, m), b(n, m), t
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * 7 + j * 3, 11)) - 5.0d0
      b(i, j) = -9.0d0
    end do
  end do
  !$translate kernel dc
  do concurrent (i = 1:n, j = 1:m, a(i, j) > 0.0d0)
    t = a(i, j) * 3.0d0
    b(i, j) = t + 1.0d0
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b
end program dconc1
