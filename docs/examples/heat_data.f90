! The tutorial's Fortran program with a data region: u and v stay on the device for the whole
! time loop, and are copied back once at its end.
subroutine smooth(n, u, v)
  integer, intent(in) :: n
  real(8), intent(in) :: u(0:n+1)
  real(8), intent(inout) :: v(0:n+1)
  integer :: i
  !$translate kernel smooth_k
  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  !$translate add_prefetch("u", ["i_inner"])
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
  !$translate data copy(u, v)
  do step = 1, 50
     call smooth(n, u, v)
     call smooth(n, v, u)
  end do
  !$translate end data
  print '(a, f12.6, a, f12.6)', 'total ', sum(u), '  middle ', u(n/2)
end program
