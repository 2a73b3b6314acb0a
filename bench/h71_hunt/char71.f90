program char71
  implicit none
  integer, parameter :: n = 12
  real(8) :: a(n), b(n)
  character(len=8) :: mode
  integer :: i
  mode = 'upwind'
  do i = 1, n
    a(i) = dble(i)
  end do
  !$translate kernel ch
  do i = 2, n
    if (mode == 'upwind') then
      b(i) = a(i) - a(i - 1)
    else
      b(i) = a(i)
    end if
  end do
  !$translate end kernel
  b(1) = 0.0d0
  write(*, '(4ES24.16)') b
end program char71
