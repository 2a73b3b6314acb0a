! translate-test: translate=--reassociate rtol=1e-12
! 2-D reductions as a field summary writes them (five sums over k and j, a minimum with its
! location, a maximum), on odd sizes, called many times.
module fs
  implicit none
contains
  subroutine summary(nx, ny, d, e, u, vol, mass, ie, ke, dtmin, jmin, kmin, umax, cnt)
    integer, intent(in) :: nx, ny
    real(8), intent(in) :: d(nx, ny), e(nx, ny), u(nx, ny)
    real(8), intent(out) :: vol, mass, ie, ke, dtmin, umax
    integer, intent(out) :: jmin, kmin
    integer(8), intent(out) :: cnt
    integer :: j, k
    real(8) :: dtc
    vol = 0; mass = 0; ie = 0; ke = 0; umax = -huge(1d0); cnt = 0
    dtmin = huge(1d0); jmin = -1; kmin = -1
    !$translate kernel summary_k
    do k = 1, ny
      do j = 1, nx
        vol = vol + 0.25d0
        mass = mass + d(j, k)
        ie = ie + d(j, k) * e(j, k)
        ke = ke + 0.5d0 * d(j, k) * u(j, k)**2
        umax = max(umax, abs(u(j, k)))
        cnt = cnt + int(mod(j * 7 + k, 13), 8)
      end do
    end do
    do k = 1, ny
      do j = 1, nx
        dtc = 0.5d0 / (1d0 + abs(u(j, k)) + d(j, k))
        if (dtc < dtmin) then
          dtmin = dtc
          jmin = j
          kmin = k
        end if
      end do
    end do
    !$translate end kernel
  end subroutine
end module

program main
  use fs
  implicit none
  integer, parameter :: nx = 1999, ny = 1001
  real(8), allocatable :: d(:, :), e(:, :), u(:, :)
  real(8) :: vol, mass, ie, ke, dtmin, umax
  integer :: jmin, kmin, t, j, k
  integer(8) :: cnt
  allocate(d(nx, ny), e(nx, ny), u(nx, ny))
  do k = 1, ny
    do j = 1, nx
      d(j, k) = 1d0 + mod(j * 31 + k * 17, 101) / 50d0
      e(j, k) = 2d0 + mod(j * 13 + k * 7, 37) / 20d0
      u(j, k) = mod(j * 11 + k * 3, 53) / 10d0 - 2.6d0
    end do
  end do
  do t = 1, 30
    u(mod(t * 97, nx) + 1, mod(t * 31, ny) + 1) = 40d0 + t
    d(mod(t * 89, nx) + 1, mod(t * 23, ny) + 1) = 7d0 + t
    call summary(nx, ny, d, e, u, vol, mass, ie, ke, dtmin, jmin, kmin, umax, cnt)
    print '(i3,5es24.15,2i6,i12)', t, vol, mass, ie, ke, dtmin, jmin, kmin, cnt
    print '(es24.16)', umax
  end do
end program
