program mv
  implicit none
  integer, parameter :: n = 300
  real(8) :: a(n, n), x(n), y(n), t
  integer :: i, j
  do j = 1, n
    x(j) = mod(j * 13, 23) / 23d0
    do i = 1, n
      a(i, j) = mod(i * 11 + j, 29) / 29d0 - 0.5d0
    end do
  end do
  !$translate kernel gemv
  do i = 1, n
    t = 0d0
    do j = 1, n
      t = t + a(i, j) * x(j)
    end do
    y(i) = t
  end do
  !$translate end kernel
  write (*, '(3z17)') sum(y), y(1), y(n)
end program
