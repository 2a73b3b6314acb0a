! translate-test: translate=--directives=openmp
module sweep_mod
  implicit none
  integer, parameter :: dp = kind(1.0d0)
contains
  subroutine sweep(nx, ny, na, oct, mu, eta, sigt, q, psi, flux)
    integer, intent(in) :: nx, ny, na, oct
    real(dp), intent(in) :: mu(na), eta(na), sigt(nx, ny), q(nx, ny)
    real(dp), intent(out) :: psi(nx, ny, na)
    real(dp), intent(inout) :: flux(nx, ny)
    integer :: ist, iend, istep, jst, jend, jstep, i, j, a
    real(dp) :: pin_x, pin_y, denom
    real(dp) :: edge_x(ny, na)
    if (mod(oct, 2) == 1) then
      ist = 1; iend = nx; istep = 1
    else
      ist = nx; iend = 1; istep = -1
    end if
    if (oct <= 2) then
      jst = 1; jend = ny; jstep = 1
    else
      jst = ny; jend = 1; jstep = -1
    end if
    !$omp parallel do private(i, j, pin_x, pin_y, denom)
    do a = 1, na
      do j = jst, jend, jstep
        edge_x(j, a) = 0.0_dp
        do i = ist, iend, istep
          pin_x = edge_x(j, a)
          if (j == jst) then
            pin_y = 0.0_dp
          else
            pin_y = psi(i, j - jstep, a)
          end if
          denom = sigt(i, j) + 2.0_dp * mu(a) + 2.0_dp * eta(a)
          psi(i, j, a) = (q(i, j) + 2.0_dp * mu(a) * pin_x + 2.0_dp * eta(a) * pin_y) / denom
          edge_x(j, a) = 2.0_dp * psi(i, j, a) - pin_x
        end do
      end do
    end do
    !$omp end parallel do
    do a = 1, na
      do j = 1, ny
        do i = 1, nx
          flux(i, j) = flux(i, j) + 0.25_dp * psi(i, j, a)
        end do
      end do
    end do
  end subroutine sweep
end module sweep_mod

program snapish
  use sweep_mod
  implicit none
  integer, parameter :: nx = 17, ny = 13, na = 8
  real(dp) :: mu(na), eta(na), sigt(nx, ny), q(nx, ny), psi(nx, ny, na), flux(nx, ny)
  integer :: i, j, oct
  do i = 1, na
    mu(i) = 0.1_dp + 0.1_dp * i
    eta(i) = sqrt(1.0_dp - mu(i) ** 2) * 0.5_dp
  end do
  do j = 1, ny
    do i = 1, nx
      sigt(i, j) = 1.0_dp + 0.5_dp * mod(i + j, 3)
      q(i, j) = 1.0_dp + 0.01_dp * i * j
    end do
  end do
  flux = 0
  do oct = 1, 4
    call sweep(nx, ny, na, oct, mu, eta, sigt, q, psi, flux)
    print '(i2, 3es24.16)', oct, sum(psi), psi(1, 1, 1), psi(nx, ny, na)
  end do
  print '(es24.16)', sum(flux)
end program snapish
