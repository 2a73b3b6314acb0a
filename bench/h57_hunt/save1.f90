! translate-test: translate=--directives=openmp
module counters
  implicit none
contains
  function bump(x) result(y)
    real(8), intent(in) :: x
    real(8) :: y
    integer, save :: calls = 0
    calls = calls + 1
    y = x + calls
  end function bump
end module counters

program save1
  use counters
  implicit none
  integer, parameter :: n = 40
  real(8) :: a(n), b(n)
  integer :: i
  do i = 1, n
    a(i) = i
  end do
  !$omp parallel do
  do i = 1, n
    b(i) = bump(a(i))
  end do
  print '(2es24.16)', sum(b), b(n)
end program save1
