! translate-test: rtol=1e-12 translate=--directives=openacc
!
! Parallel reductions with OpenACC directives (translate --directives openacc): the OpenACC
! version of samples/fortran/reductions.f90.  A "reduction" clause is the user's consent to
! add the terms in another order, so results may differ in the last bits (hence the tolerance
! on the first line); maxima, minima and counts are exact.
!
! dot: "vector_length(64)" gives the pragma version's work groups of 64 (the same kernel).
! norms: "num_gangs(1)" keeps the whole loop in one work group of 128 work items.
! row_sums: each row is an independent iteration; the inner loop runs in sequence ("loop seq")
! and accumulates into a private scalar.

subroutine dot(n, x, y, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), y(n)
  real(8), intent(inout) :: s
  integer :: i

  s = 0.0d0
  !$acc parallel loop reduction(+:s) vector_length(64) copyin(x, y)
  do i = 1, n
     s = s + x(i) * y(i)
  end do
end subroutine dot

subroutine norms(n, x, total, biggest, npos)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: total, biggest
  integer, intent(out) :: npos
  integer :: i

  total = 0.0d0
  biggest = 0.0d0
  npos = 0
  !$acc parallel loop num_gangs(1) vector_length(128) &
  !$acc& reduction(+:total, npos) reduction(max:biggest)
  do i = 1, n
     total = total + x(i)**2
     biggest = max(biggest, abs(x(i)))
     if (x(i) > 0.0d0) npos = npos + 1
  end do
  !$acc end parallel loop
end subroutine norms

subroutine row_sums(m, n, a, r)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: r(m)
  integer :: i, j
  real(8) :: t

  !$acc parallel loop private(t) copyin(a) copyout(r)
  do i = 1, m
     t = 0.0d0
     !$acc loop seq
     do j = 1, n
        t = t + a(i, j)
     end do
     r(i) = t
  end do
end subroutine row_sums

program main
  implicit none
  integer, parameter :: n = 1000, m = 37, k = 45
  real(8) :: x(n), y(n), a(m, k), r(m), s, total, biggest
  integer :: npos, i, j

  do i = 1, n
     x(i) = sin(0.37d0 * i) + 0.1d0 * cos(2.1d0 * i)
     y(i) = cos(0.11d0 * i) - 0.5d0
  end do
  do j = 1, k
     do i = 1, m
        a(i, j) = 1.0d0 / (i + j) - 0.01d0 * mod(i * j, 7)
     end do
  end do

  call dot(n, x, y, s)
  print '(a, es23.15e3)', 'dot      = ', s
  call norms(n, x, total, biggest, npos)
  print '(a, es23.15e3)', 'sum x**2 = ', total
  print '(a, es23.15e3)', 'max |x|  = ', biggest
  print '(a, i8)', 'positive = ', npos
  call row_sums(m, k, a, r)
  print '(a, 3(1x, es23.15e3))', 'rows     = ', r(1), r(m/2), r(m)
  print '(a, es23.15e3)', 'sum rows = ', sum(r)
end program main
