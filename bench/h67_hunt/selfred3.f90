program selfred3
  implicit none
  integer, parameter :: n = 12
  real(8) :: x(n), y(n)
  integer :: i
  do i = 1, n
    x(i) = dble(i) - 6.5d0
    y(i) = dble(mod(i, 5))
  end do
  !$translate kernel loopred
  do i = 1, n
    x(i) = x(i) - sum(x) / dble(n)
  end do
  !$translate end kernel
  !$translate kernel msk
  y = y - sum(y, mask=y > 1.0d0) + dble(count(y > 2.0d0))
  !$translate end kernel
  write(*, '(4ES24.16)') x, y
end program selfred3
