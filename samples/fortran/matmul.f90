! Matrix-matrix product C = A*B with explicit loops, as legacy codes write it.
!
! The dot product of row i of A and column j of B is accumulated in the scalar t.  Because t
! is written before it is read in every (i, j) iteration and the program does not use it
! outside the region, it becomes a private variable of each work item, so i and j can both
! run in parallel; k stays a sequential loop inside each work item.

subroutine mxm(m, n, p, a, b, c)
  implicit none
  integer, intent(in) :: m, n, p
  real(8), intent(in) :: a(m, p), b(p, n)
  real(8), intent(out) :: c(m, n)
  integer :: i, j, k
  real(8) :: t

  !$translate kernel mxm
  !$translate split_iname("i", 8, outer_tag="g.0", inner_tag="l.0")
  !$translate split_iname("j", 8, outer_tag="g.1", inner_tag="l.1")
  do j = 1, n
     do i = 1, m
        t = 0.0d0
        do k = 1, p
           t = t + a(i, k) * b(k, j)
        end do
        c(i, j) = t
     end do
  end do
  !$translate end kernel
end subroutine mxm

program main
  implicit none
  integer, parameter :: m = 50, n = 40, p = 30
  real(8) :: a(m, p), b(p, n), c(m, n)
  integer :: i, j

  do j = 1, p
     do i = 1, m
        a(i, j) = real(i + 2*j, 8) / m
     end do
  end do
  do j = 1, n
     do i = 1, p
        b(i, j) = cos(0.1d0 * (i - j))
     end do
  end do

  call mxm(m, n, p, a, b, c)

  print '(a, 1x, es23.15e3)', 'checksum = ', sum(c)
  print '(a, 3(1x, es23.15e3))', 'c(1,1), c(m/2,n/3), c(m,n) = ', c(1, 1), c(m/2, n/3), c(m, n)
end program main
