module setup
  implicit none
  character(len=16) :: bc = 'periodic'
  character(len=*), parameter :: scheme = 'central'
end module setup
program char72
  use setup
  implicit none
  integer, parameter :: n = 12
  real(8) :: a(0:n + 1), b(n)
  character(len=4) :: tag
  integer :: i
  tag = 'x2  '
  do i = 0, n + 1
    a(i) = dble(i * i) * 0.5d0
  end do
  !$translate kernel ch
  do i = 1, n
    if (trim(bc) == 'periodic' .and. scheme /= 'upwind') then
      b(i) = 0.5d0 * (a(i + 1) - a(i - 1))
    else if (tag(1:2) == 'x2') then
      b(i) = 2.0d0 * a(i)
    else
      b(i) = a(i)
    end if
    if (tag(1:2) == 'x2' .and. b(i) > 10.0d0) b(i) = b(i) - 10.0d0
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b
  bc = 'wall'
  !$translate kernel ch2
  do i = 1, n
    if (trim(bc) == 'periodic') then
      b(i) = -a(i)
    else
      b(i) = a(i) + 1.0d0
    end if
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') b
end program char72
