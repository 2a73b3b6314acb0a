module om
contains
  subroutine sc(n, x, w, t)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8), intent(in), optional :: w(n)
    real(8), intent(in) :: t
    integer :: i
    !$translate kernel op
    do i = 1, n
      if (present(w) .and. x(i) > t) then
        x(i) = x(i) * w(i)
      else if (.not. present(w) .or. x(i) < -t) then
        x(i) = x(i) + 1.0d0
      end if
    end do
    !$translate end kernel
  end subroutine
end module
program optand
  use om
  real(8) :: x(10), w(10)
  integer :: i
  x = [(dble(i) - 5.0d0, i = 1, 10)]
  w = 3.0d0
  call sc(10, x, t=0.5d0)
  call sc(10, x, w, 0.5d0)
  write(*, '(5ES24.16)') x
end program
