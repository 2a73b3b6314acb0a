! translate-test: translate=--directives=openacc
!
! saxpy: y = a*x + y, the "hello world" of offloading.
!
! The OpenACC version of samples/fortran/saxpy.f90 (translate --directives openacc): the
! "parallel loop" directive declares the loop independent, which the translator proves, and
! vector_length(128) asks for work groups of 128 work items, as the pragma version's
! split_iname does.  The kernel is the same.
! (rtol: the device may fuse a*x + y into one multiply-add, which rounds once instead of twice.)

subroutine saxpy(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i

  !$acc parallel loop vector_length(128) copyin(x) copy(y)
  do i = 1, n
     y(i) = a*x(i) + y(i)
  end do
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
