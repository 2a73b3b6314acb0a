! Calls of your own procedures inside a region: inlined.
!
! `twice` gets a column section a(1:n, i) (its x(k) is a(k, i)), `sq` is a pure function of a
! module used in an expression, `bump` writes its scalar dummy (the caller's c(i)), and the
! elemental `half` runs per element of an array assignment.  The translator reads each callee's
! source (this file, the other files of the command, modules found by -I) and builds its
! statements at the call, so the loop over i is mapped as if the code were written inline
! (`translate --report` shows the loops; the callee's loop is `twice_k`).

module helpers
  implicit none
contains
  pure function sq(x) result(y)
    real(8), intent(in) :: x
    real(8) :: y
    y = x * x
  end function sq

  elemental function half(x)
    real(8), intent(in) :: x
    real(8) :: half
    half = 0.5d0 * x
  end function half
end module helpers

subroutine twice(n, x)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n)
  integer :: k
  real(8) :: t
  do k = 1, n
    t = 2.0d0 * x(k)
    x(k) = t
  end do
end subroutine twice

subroutine bump(s, v)
  implicit none
  real(8), intent(inout) :: s
  real(8), intent(in) :: v
  s = s + v
end subroutine bump

subroutine work(n, m, a, b, c)
  use helpers
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(inout) :: a(n, m), b(m), c(m)
  integer :: i
  !$translate kernel cols
  do i = 1, m
    call twice(n, a(1:n, i))
    b(i) = sq(a(1, i)) + 1.0d0
    call bump(c(i), a(2, i))
  end do
  c = half(c)
  !$translate end kernel
end subroutine work

program main
  implicit none
  integer, parameter :: n = 7, m = 33
  real(8) :: a(n, m), b(m), c(m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      a(i, j) = 0.1d0 * i + j
    end do
    c(j) = j
  end do
  b = 0
  call work(n, m, a, b, c)
  print '(4es24.16)', sum(a), sum(b), sum(c), a(3, 5)
end program main
