! An FDTD-like 2-D time loop over three fields (the shape of the polyhedral benchmark
! fdtd-2d): per step, a boundary row from the source, ey and ex from hz, then hz from ex and
! ey.  hz reads the neighbours that the first three updates wrote, so each step is two
! kernels (the first three updates are independent and share one) that a host loop launches;
! the fields stay on the device for all the steps.

subroutine fdtd(tmax, nx, ny, fict, ex, ey, hz)
  implicit none
  integer, intent(in) :: tmax, nx, ny
  real(8), intent(in) :: fict(tmax)
  real(8), intent(inout) :: ex(ny, nx), ey(ny, nx), hz(ny, nx)
  integer :: t, i, j

  !$translate kernel fdtd
  do t = 1, tmax
     do j = 1, ny
        ey(j, 1) = fict(t)
     end do
     do i = 2, nx
        do j = 1, ny
           ey(j, i) = ey(j, i) - 0.5d0 * (hz(j, i) - hz(j, i-1))
        end do
     end do
     do i = 1, nx
        do j = 2, ny
           ex(j, i) = ex(j, i) - 0.5d0 * (hz(j, i) - hz(j-1, i))
        end do
     end do
     do i = 1, nx - 1
        do j = 1, ny - 1
           hz(j, i) = hz(j, i) - 0.7d0 * (ex(j+1, i) - ex(j, i) + ey(j, i+1) - ey(j, i))
        end do
     end do
  end do
  !$translate end kernel
end subroutine fdtd

program main
  implicit none
  integer, parameter :: nx = 36, ny = 52, tmax = 10
  real(8) :: ex(ny, nx), ey(ny, nx), hz(ny, nx), fict(tmax)
  integer :: t, i, j

  do t = 1, tmax
     fict(t) = (t - 1) * 0.5d0
  end do
  do i = 1, nx
     do j = 1, ny
        ex(j, i) = dble((i - 1) * j) / nx
        ey(j, i) = dble((i - 1) * (j + 1)) / ny
        hz(j, i) = dble((i - 1) * (j + 2)) / nx
     end do
  end do
  call fdtd(tmax, nx, ny, fict, ex, ey, hz)
  print '(a, es23.15e3)', 'checksum ', sum(ex) + 2 * sum(ey) + 3 * sum(hz)
  print '(a, es23.15e3)', 'hz(8,6) ', hz(8, 6)
end program main
