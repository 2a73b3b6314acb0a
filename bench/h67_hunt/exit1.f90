program exit1
  implicit none
  integer, parameter :: n = 20
  real(8) :: a(n)
  integer :: i
  a = 1.0d0
  !$translate kernel ex
  do i = 1, n
    if (i > 10) exit
    a(i) = 2.0d0
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') a
end program exit1
