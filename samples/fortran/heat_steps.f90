! A time-stepped 2-D heat equation with the time loop inside the region.
!
! Each step is two sweeps that depend on each other, and each step on the one before: no
! single kernel can run this in parallel.  The region becomes a host program: the time loop
! runs on the host and launches two parallel kernels per step, while u and v stay on the
! device for the whole call (`translate --report` lists the kernels and the data moved).

subroutine heat(n, steps, alpha, u, v)
  implicit none
  integer, intent(in) :: n, steps
  real(8), intent(in) :: alpha
  real(8), intent(inout) :: u(n, n), v(n, n)
  integer :: t, i, j

  !$translate kernel heat
  do t = 1, steps
     do j = 2, n - 1
        do i = 2, n - 1
           v(i, j) = u(i, j) + alpha * (u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1) &
                                        - 4.0d0 * u(i, j))
        end do
     end do
     do j = 2, n - 1
        do i = 2, n - 1
           u(i, j) = v(i, j)
        end do
     end do
  end do
  !$translate end kernel
end subroutine heat

program main
  implicit none
  integer, parameter :: n = 80
  real(8) :: u(n, n), v(n, n), s
  integer :: i, j

  do j = 1, n
     do i = 1, n
        u(i, j) = mod(i * 7 + j * 3, 11) * 0.5d0
     end do
  end do
  u(n/2, n/3) = 1000.0d0
  v = 0.0d0
  call heat(n, 30, 0.2d0, u, v)
  s = 0.0d0
  do j = 1, n
     do i = 1, n
        s = s + u(i, j) * (1 + mod(i + 2 * j, 5))
     end do
  end do
  print '(a, es23.15e3)', 'weighted sum ', s
  print '(a, 2es23.15e3)', 'centre, corner ', u(n/2, n/3), u(2, 2)
end program main
