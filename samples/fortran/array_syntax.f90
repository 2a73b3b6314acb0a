! Fortran array syntax: whole arrays, sections with strides, elemental intrinsics, WHERE, SUM.
!
! Each array assignment becomes a loop over generated loop variables (named _tr_i, _tr_i_0,
! ...; `translate --emit ir` shows them).  The region has several loop nests that depend on
! each other, so it runs as a host program: one parallel kernel per group of independent nests,
! launched in order, the arrays kept on the device between the launches (`translate --report`
! lists the kernels).

subroutine smooth(n, u, v, w, norm)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: u(n)
  real(8), intent(out) :: v(n), w(0:n+1)
  real(8), intent(out) :: norm

  !$translate kernel smooth
  w = 0.0d0
  w(1:n) = u
  v(2:n-1) = (w(1:n-2) + 2*w(2:n-1) + w(3:n)) / 4
  v(1) = u(1)
  v(n) = u(n)
  v(1:n:2) = -v(1:n:2)
  v = v + 0.5d0 * abs(u) - exp(-u**2)
  where (u > 1.5d0)
     v = v * 2
  elsewhere (u < -1.0d0)
     v = 0.0d0
  end where
  norm = sqrt(sum(v*v)) + maxval(v(2:n-1)) - minval(w)
  !$translate end kernel
end subroutine smooth

program main
  implicit none
  integer, parameter :: n = 257
  real(8) :: u(n), v(n), w(0:n+1), norm
  integer :: i

  do i = 1, n
     u(i) = cos(0.05d0 * i) * (1 + mod(i, 3))
  end do

  call smooth(n, u, v, w, norm)

  print '(a, 1x, es23.15e3)', 'norm = ', norm
  print '(a, 1x, es23.15e3)', 'checksum(v) = ', sum(v)
  print '(a, 3(1x, es23.15e3))', 'v(1), v(n/2), v(n) = ', v(1), v(n/2), v(n)
end program main
