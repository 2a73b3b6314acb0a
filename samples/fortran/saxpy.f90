! saxpy: y = a*x + y, the "hello world" of offloading.
!
! The region between "!$translate kernel" and "!$translate end kernel" becomes an OpenCL
! kernel.  The line after the kernel directive maps the loop onto the device: the iteration
! space of i is split into chunks of 128 work items (one work-group each, "g.0"), and the
! position inside a chunk is the work item's local id ("l.0").
! (rtol: the device may fuse a*x + y into one multiply-add, which rounds once instead of twice.)

subroutine saxpy(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i

  !$translate kernel saxpy_k
  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     y(i) = a*x(i) + y(i)
  end do
  !$translate end kernel
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
