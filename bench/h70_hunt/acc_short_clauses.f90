! translate-test: translate=--directives=openacc,openmp
! Data clauses on compute constructs smaller than what the loop touches (warnings at the
! clause; the result is the sequential one).
subroutine scale(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  integer :: i
  !$acc parallel loop copyin(x(1:n/2)) copyout(y)
  do i = 1, n
    y(i) = 2.0d0 * x(i)
  end do
end subroutine scale

subroutine shift(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(0:n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$omp target teams distribute parallel do map(to: x(1:n)) map(tofrom: y(1:n))
  do i = 1, n
    y(i) = y(i) + x(i - 1)
  end do
end subroutine shift

subroutine fine(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(0:n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$acc parallel loop copyin(x(0:n)) copy(y(1:n))
  do i = 1, n
    y(i) = y(i) + x(i)
  end do
end subroutine fine

program short_clauses
  implicit none
  integer, parameter :: n = 100
  real(8) :: x(0:n), y(n)
  integer :: i
  do i = 0, n
    x(i) = dble(i) * 0.5d0
  end do
  call scale(n, x(1:n), y)
  call shift(n, x, y)
  call fine(n, x, y)
  print '(ES24.16)', sum(y)
end program short_clauses
