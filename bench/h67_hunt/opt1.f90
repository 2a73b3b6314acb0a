program opt1
  implicit none
  integer, parameter :: n = 20
  real(8) :: a(n), w(n)
  integer :: i
  a = 1.0d0
  w = 0.5d0
  call sc(n, a)
  call sc(n, a, w)
  write(*, '(4ES24.16)') a
contains
  subroutine sc(n, x, wt)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8), intent(in), optional :: wt(n)
    integer :: i
    !$translate kernel op
    do i = 1, n
      if (present(wt)) then
        x(i) = x(i) * wt(i)
      else
        x(i) = x(i) + dble(i)
      end if
    end do
    !$translate end kernel
  end subroutine
end program opt1
