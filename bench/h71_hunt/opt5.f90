module chain
  implicit none
contains
  subroutine weigh(v, w)
    real(8), intent(inout) :: v
    real(8), intent(in), optional :: w
    if (present(w)) then
      v = v * w
    else
      v = -v
    end if
  end subroutine
  subroutine apply(n, x, w)
    integer, intent(in) :: n
    real(8), intent(inout) :: x(n)
    real(8), intent(in), optional :: w(n)
    integer :: i
    !$translate kernel ap
    do i = 1, n
      if (present(w)) then
        call weigh(x(i), w(i))
      else
        call weigh(x(i))
      end if
    end do
    !$translate end kernel
  end subroutine
end module chain
program opt5
  use chain
  implicit none
  real(8) :: x(9), w(9)
  integer :: i
  x = [(dble(i) * 0.5d0, i = 1, 9)]
  w = [(dble(10 - i), i = 1, 9)]
  call apply(9, x)
  call apply(9, x, w)
  write(*, '(3ES24.16)') x
end program opt5
