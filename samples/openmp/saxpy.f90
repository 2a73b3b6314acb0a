! translate-test: translate=--directives=openmp
!
! saxpy with OpenMP: `translate --directives openmp` proves the directive's claim (the loop is
! parallel) and turns the loop into an OpenCL kernel, the same kernel as
! samples/fortran/saxpy.f90 without its mapping pragma.

subroutine saxpy(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i

  !$omp parallel do
  do i = 1, n
     y(i) = a*x(i) + y(i)
  end do
  !$omp end parallel do
end subroutine saxpy

program main
  implicit none
  integer, parameter :: n = 100000
  real(8), allocatable :: x(:), y(:)
  integer :: i

  allocate(x(n), y(n))
  do i = 1, n
     x(i) = sin(0.001d0 * i)
     y(i) = real(mod(i, 7), 8)
  end do

  call saxpy(n, 2.5d0, x, y)

  print '(a, 1x, es23.15e3)', 'checksum = ', sum(y)
  print '(a, 3(1x, es23.15e3))', 'y(1), y(n/2), y(n) = ', y(1), y(n/2), y(n)
end program main
