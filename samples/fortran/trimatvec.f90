! Lower-triangular matrix-vector product y = L*x.
!
! The inner loop's bounds depend on the outer loop variable (j runs from 1 to i): a
! triangular loop nest.  Row i's sum is private to the work item that owns i.

subroutine trimatvec(n, l, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: l(n, n), x(n)
  real(8), intent(out) :: y(n)
  integer :: i, j
  real(8) :: acc

  !$translate kernel trimv
  !$translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     acc = 0.0d0
     do j = 1, i
        acc = acc + l(i, j) * x(j)
     end do
     y(i) = acc
  end do
  !$translate end kernel
end subroutine trimatvec

program main
  implicit none
  integer, parameter :: n = 300
  real(8) :: l(n, n), x(n), y(n)
  integer :: i, j

  do j = 1, n
     do i = 1, n
        l(i, j) = 0.0d0
        if (j <= i) l(i, j) = 1.0d0 / (i + j)
     end do
     x(j) = 1.0d0 + mod(j, 5)
  end do

  call trimatvec(n, l, x, y)

  print '(a, 1x, es23.15e3)', 'checksum = ', sum(y)
  print '(a, 3(1x, es23.15e3))', 'y(1), y(n/2), y(n) = ', y(1), y(n/2), y(n)
end program main
