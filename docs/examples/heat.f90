! The tutorial's Fortran program: a rod cooling down, one smoothing step after another.
subroutine smooth(n, u, v)
  integer, intent(in) :: n
  real(8), intent(in) :: u(0:n+1)
  real(8), intent(inout) :: v(0:n+1)
  integer :: i
  !$translate kernel smooth_k
  do i = 1, n
     v(i) = 0.25d0*u(i-1) + 0.5d0*u(i) + 0.25d0*u(i+1)
  end do
  !$translate end kernel
end subroutine

program heat
  implicit none
  integer, parameter :: n = 1000
  real(8) :: u(0:n+1), v(0:n+1)
  integer :: step
  u = 0
  u(n/2) = 1000
  v = u
  do step = 1, 50
     call smooth(n, u, v)
     call smooth(n, v, u)
  end do
  print '(a, f12.6, a, f12.6)', 'total ', sum(u), '  middle ', u(n/2)
end program
