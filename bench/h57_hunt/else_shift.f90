! translate-test: translate=--directives=translate
subroutine shiftk(n, na, s, x, y)
  implicit none
  integer, intent(in) :: n, na, s
  real(8), intent(in) :: x(n, na)
  real(8), intent(out) :: y(n, na)
  integer :: a, j
  real(8) :: p
  !$translate kernel
  do a = 1, na
    do j = 1, n
      if (j == 1) then
        p = 0
      else
        p = x(j - s, a)
      end if
      y(j, a) = p + a
    end do
  end do
  !$translate end kernel
end subroutine shiftk

program cond1
  implicit none
  integer, parameter :: n = 20, na = 5
  real(8) :: x(n, na), y(n, na)
  integer :: j, a
  do a = 1, na
    do j = 1, n
      x(j, a) = j * 10 + a
    end do
  end do
  call shiftk(n, na, 1, x, y)
  print '(es24.16)', sum(y)
end program cond1
