! translate-test: rtol=1e-12
!
! Parallel reductions.  An accumulation such as `s = s + x(i)` inside a loop mapped to the
! hardware is a reduction: the translator sums each work group's share in a tree in local
! memory and, across work groups, adds each group's part to the result atomically.  Parallel
! sums add the terms in another order than the loop, so results may differ in the last bits
! (hence the tolerance on the first line); maxima, minima and counts are exact.
!
! Across work groups the result must be initialised before the region (groups cannot wait
! for each other inside a kernel).  Mapping only the inner part of a loop to a local axis
! keeps the reduction inside one work group, so the initialisation can stay in the region.

subroutine dot(n, x, y, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), y(n)
  real(8), intent(inout) :: s
  integer :: i

  s = 0.0d0
  !$translate kernel dot_k
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     s = s + x(i) * y(i)
  end do
  !$translate end kernel
end subroutine dot

subroutine norms(n, x, total, biggest, npos)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: total, biggest
  integer, intent(out) :: npos
  integer :: i

  !$translate kernel norms_k
  !$translate split_iname("i", 128, inner_tag="l.0")
  total = 0.0d0
  biggest = 0.0d0
  npos = 0
  do i = 1, n
     total = total + x(i)**2
     biggest = max(biggest, abs(x(i)))
     if (x(i) > 0.0d0) npos = npos + 1
  end do
  !$translate end kernel
end subroutine norms

subroutine row_sums(m, n, a, r)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(m, n)
  real(8), intent(out) :: r(m)
  integer :: i, j

  !$translate kernel rows_k
  !$translate tag_inames("i:g.0")
  !$translate split_iname("j", 32, inner_tag="l.0")
  do i = 1, m
     r(i) = 0.0d0
     do j = 1, n
        r(i) = r(i) + a(i, j)
     end do
  end do
  !$translate end kernel
end subroutine row_sums

subroutine intrinsics(n, x, y, total, d, big, small, c, some, every)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n), y(n)
  real(8), intent(out) :: total, d, big, small
  integer, intent(out) :: c
  logical, intent(out) :: some, every

  ! Array intrinsics loop over generated inames _tr_i, _tr_i_0, ... (translate --emit ir).
  !$translate kernel intrinsics_k
  !$translate split_iname("_tr_i", 64, inner_tag="l.0")
  !$translate split_iname("_tr_i_0", 64, inner_tag="l.0")
  !$translate split_iname("_tr_i_1", 64, inner_tag="l.0")
  !$translate split_iname("_tr_i_2", 16, inner_tag="l.0")
  !$translate split_iname("_tr_i_3", 64, inner_tag="l.0")
  !$translate split_iname("_tr_i_4", 64, inner_tag="l.0")
  !$translate split_iname("_tr_i_5", 64, inner_tag="l.0")
  total = sum(x)
  d = dot_product(x, y)
  big = maxval(abs(x(2:n-1)))
  small = minval(x(1:n:3))
  c = count(x > 0.25d0)
  some = any(x(2:n:2) > 0.99d0)
  every = all(y > -1.4d0)
  !$translate end kernel
end subroutine intrinsics

program main
  implicit none
  integer, parameter :: n = 1000, m = 37, k = 45
  real(8) :: x(n), y(n), a(m, k), r(m), s, total, biggest, d, big, small
  integer :: npos, c, i, j
  logical :: some, every

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
  call intrinsics(n, x, y, total, d, big, small, c, some, every)
  print '(a, es23.15e3)', 'sum      = ', total
  print '(a, es23.15e3)', 'dot      = ', d
  print '(a, 2(1x, es23.15e3))', 'max, min = ', big, small
  print '(a, i8, 2l3)', 'count, any, all = ', c, some, every
end program main
