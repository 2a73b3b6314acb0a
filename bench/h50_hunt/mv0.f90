program mv
  implicit none
  integer, parameter :: n = 300
  real(8) :: a(0:n-1, 0:n-1), x(0:n-1), y(0:n-1), t
  integer :: i, j
  do j = 0, n - 1
    x(j) = mod(j * 13, 23) / 23d0
    do i = 0, n - 1
      a(i, j) = mod(i * 11 + j, 29) / 29d0 - 0.5d0
    end do
  end do
  !$translate kernel gemv
  do i = 0, n - 1
    t = 0d0
    do j = 0, n - 1
      t = t + a(i, j) * x(j)
    end do
    y(i) = t
  end do
  !$translate end kernel
  write (*, '(3z17)') sum(y), y(0), y(n - 1)
end program
