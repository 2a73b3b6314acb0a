program intrin1
  implicit none
  integer, parameter :: n = 24, m = 6
  real(8) :: a(n, m), cs(m), mx(m), dp(m), x(n)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = cos(dble(i * j) * 0.3d0)
    end do
  end do
  do i = 1, n
    x(i) = dble(i)
  end do
  !$translate kernel red
  do j = 1, m
    cs(j) = sum(a(:, j))
    mx(j) = maxval(a(:, j))
    dp(j) = dot_product(a(:, j), x)
  end do
  !$translate end kernel
  write(*, '(3ES24.16)') cs, mx, dp
end program intrin1
