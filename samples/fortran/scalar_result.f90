! Statistics of a vector: the region writes scalars (sum, minimum, maximum, count).
!
! A scalar that the region writes and the caller needs afterwards is passed by reference;
! its new value comes back when the region's call returns.  Accumulating into one scalar
! from every iteration is a sequential dependence, so this region has no parallel mapping:
! it runs as a single work item, in the original order (so the sum is bit-identical).

subroutine stats(n, x, total, smallest, largest, npos)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: total, smallest, largest
  integer, intent(out) :: npos
  integer :: i

  !$translate kernel stats
  total = 0.0d0
  smallest = huge(smallest)
  largest = -huge(largest)
  npos = 0
  do i = 1, n
     total = total + x(i)
     smallest = min(smallest, x(i))
     largest = max(largest, x(i))
     if (x(i) > 0.0d0) npos = npos + 1
  end do
  !$translate end kernel
end subroutine stats

program main
  implicit none
  integer, parameter :: n = 5000
  real(8) :: x(n), total, smallest, largest
  integer :: npos, i

  do i = 1, n
     x(i) = sin(0.01d0 * i) + 0.25d0 * cos(0.3d0 * i)
  end do

  call stats(n, x, total, smallest, largest, npos)

  print '(a, 1x, es23.15e3)', 'total    = ', total
  print '(a, 1x, es23.15e3)', 'smallest = ', smallest
  print '(a, 1x, es23.15e3)', 'largest  = ', largest
  print '(a, i8)', 'positive = ', npos
end program main
