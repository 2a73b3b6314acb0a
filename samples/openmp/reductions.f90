! translate-test: rtol=1e-12 translate=--directives=openmp
!
! Reductions with OpenMP clauses.  reduction(+:s) is the user's consent to add the terms in
! another order (a parallel sum is rounded differently: hence the tolerance); maxima and
! integer counts are exact in any order.  A worksharing loop over rows with an inner loop
! (its index private by OpenMP's rules) needs no clause at all.

subroutine dot(n, x, y, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), y(n)
  real(8), intent(out) :: s
  integer :: i
  s = 0
  !$omp parallel do reduction(+:s)
  do i = 1, n
     s = s + x(i)*y(i)
  end do
  !$omp end parallel do
end subroutine dot

subroutine stats(n, x, big, npos)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: big
  integer, intent(out) :: npos
  integer :: i
  big = 0
  npos = 0
  !$omp parallel do reduction(max:big) reduction(+:npos)
  do i = 1, n
     big = max(big, abs(x(i)))
     if (x(i) > 0) npos = npos + 1
  end do
end subroutine stats

subroutine row_sums(m, n, a, r)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: r(m)
  integer :: i, j
  !$omp parallel do
  do i = 1, m
     r(i) = 0
     do j = 1, n
        r(i) = r(i) + a(i, j)
     end do
  end do
end subroutine row_sums

program main
  implicit none
  integer, parameter :: n = 1000, rows = 37, cols = 45
  real(8) :: x(n), y(n), a(rows, cols), r(rows), s, big
  integer :: i, j, npos
  do i = 1, n
     x(i) = sin(0.37d0*i) + 0.1d0*cos(2.1d0*i)
     y(i) = cos(0.11d0*i) - 0.5d0
  end do
  do j = 1, cols
     do i = 1, rows
        a(i, j) = 1.0d0/(i + j) - 0.01d0*mod(i*j, 7)
     end do
  end do
  call dot(n, x, y, s)
  call stats(n, x, big, npos)
  call row_sums(rows, cols, a, r)
  print '(a, es24.15)', 'dot ', s
  print '(a, es24.15, a, i6)', 'max |x| ', big, ' positive ', npos
  print '(a, 3es24.15)', 'rows ', r(1), r(rows/2), sum(r)
end program main
