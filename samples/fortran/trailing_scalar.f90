! A loop followed by a statement that uses its result.  `last = y(n) + y(1)` must see every
! iteration's write: in one launch it would race with the other work items, as two launches
! (a parallel kernel, then a one-work-item kernel) it does not.

subroutine update(n, a, x, y, last)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  real(8), intent(out) :: last
  integer :: i

  !$translate kernel update
  do i = 1, n
     y(i) = a * x(i) + y(i) * 0.5d0
  end do
  last = y(n) + y(1)
  !$translate end kernel
end subroutine update

program main
  implicit none
  integer, parameter :: n = 1000
  real(8) :: x(n), y(n), last
  integer :: i

  do i = 1, n
     x(i) = mod(i, 13) * 0.75d0
     y(i) = mod(i, 7) - 3.0d0
  end do
  call update(n, 1.25d0, x, y, last)
  call update(n, -0.5d0, x, y, last)
  print '(a, es23.15e3)', 'last ', last
  print '(a, es23.15e3)', 'sum ', sum(y)
end program main
