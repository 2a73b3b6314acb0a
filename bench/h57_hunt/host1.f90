! translate-test: translate=--directives=openmp
subroutine outer(n, a, b, k0)
  implicit none
  integer, intent(in) :: n, k0
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  real(8) :: shift
  integer :: i
  shift = 0.25d0 * k0
  !$omp parallel do
  do i = 1, n
    b(i) = f(a(i)) + g(i)
  end do
contains
  real(8) function f(x)
    real(8), intent(in) :: x
    f = x * x + shift
  end function f
  real(8) function g(j)
    integer, intent(in) :: j
    g = a(max(1, j - 1)) - k0
  end function g
end subroutine outer

program host1
  implicit none
  integer, parameter :: n = 33
  real(8) :: a(n), b(n)
  integer :: i
  do i = 1, n
    a(i) = sin(0.1d0 * i)
  end do
  call outer(n, a, b, 3)
  print '(2es24.16)', sum(b), b(17)
end program host1
