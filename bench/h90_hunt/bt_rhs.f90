! translate-test: translate=--directives=openmp,translate rtol=1e-12
! NPB BT/SP compute_rhs's shape: u(5, 0:nx-1, 0:ny-1, 0:nz-1), the auxiliaries (rho_i, us,
! vs, ws, square, qs), rhs = forcing, the xi-direction flux differences of the 5
! components with the 4th-order dissipation (boundary rows i = 1, 2, nx-3, nx-2 apart from
! the interior, and an m loop inside), the eta-direction for component 1, and the dt scaling;
! OpenMP as NPB-OMP: `parallel do default(shared) private(...)` on k.
program bt_rhs
  implicit none
  integer, parameter :: nx = 12, ny = 10, nz = 8
  real(8) :: u(5, 0:nx - 1, 0:ny - 1, 0:nz - 1), rhs(5, 0:nx - 1, 0:ny - 1, 0:nz - 1)
  real(8) :: forcing(5, 0:nx - 1, 0:ny - 1, 0:nz - 1)
  real(8), dimension(0:nx - 1, 0:ny - 1, 0:nz - 1) :: rho_i, us, vs, ws, square, qs
  real(8) :: rho_inv, uijk, up1, um1, dx1tx1, dx2tx1, dx3tx1, dx4tx1, dx5tx1, tx2, xxcon2
  real(8) :: c1, c2, con43, dssp, dt, vijk, vp1, vm1, dy1ty1, ty2
  integer :: i, j, k, m
  do k = 0, nz - 1
    do j = 0, ny - 1
      do i = 0, nx - 1
        do m = 1, 5
          u(m, i, j, k) = 1.0d0 + 0.01d0 * mod(m * 7 + i * 3 + j * 5 + k * 11, 17)
          forcing(m, i, j, k) = 0.001d0 * mod(m + i + 2 * j + 3 * k, 7)
        end do
      end do
    end do
  end do
  dx1tx1 = 0.11d0; dx2tx1 = 0.12d0; dx3tx1 = 0.13d0; dx4tx1 = 0.14d0; dx5tx1 = 0.15d0
  tx2 = 0.05d0; xxcon2 = 0.21d0; c1 = 1.4d0; c2 = 0.4d0; con43 = 4.0d0 / 3.0d0
  dssp = 0.025d0; dt = 0.0015d0; dy1ty1 = 0.09d0; ty2 = 0.04d0
  !$omp parallel do default(shared) private(i, j, rho_inv)
  do k = 0, nz - 1
    do j = 0, ny - 1
      do i = 0, nx - 1
        rho_inv = 1.0d0 / u(1, i, j, k)
        rho_i(i, j, k) = rho_inv
        us(i, j, k) = u(2, i, j, k) * rho_inv
        vs(i, j, k) = u(3, i, j, k) * rho_inv
        ws(i, j, k) = u(4, i, j, k) * rho_inv
        square(i, j, k) = 0.5d0 * (u(2, i, j, k)**2 + u(3, i, j, k)**2 &
                                   + u(4, i, j, k)**2) * rho_inv
        qs(i, j, k) = square(i, j, k) * rho_inv
      end do
    end do
  end do
  !$omp parallel do default(shared) private(i, j, m)
  do k = 0, nz - 1
    do j = 0, ny - 1
      do i = 0, nx - 1
        do m = 1, 5
          rhs(m, i, j, k) = forcing(m, i, j, k)
        end do
      end do
    end do
  end do
  !$omp parallel do default(shared) private(i, j, m, uijk, up1, um1)
  do k = 1, nz - 2
    do j = 1, ny - 2
      do i = 1, nx - 2
        uijk = us(i, j, k)
        up1 = us(i + 1, j, k)
        um1 = us(i - 1, j, k)
        rhs(1, i, j, k) = rhs(1, i, j, k) + dx1tx1 * (u(1, i + 1, j, k) - 2.0d0 * u(1, i, j, k) &
            + u(1, i - 1, j, k)) - tx2 * (u(2, i + 1, j, k) - u(2, i - 1, j, k))
        rhs(2, i, j, k) = rhs(2, i, j, k) + dx2tx1 * (u(2, i + 1, j, k) - 2.0d0 * u(2, i, j, k) &
            + u(2, i - 1, j, k)) + xxcon2 * con43 * (up1 - 2.0d0 * uijk + um1) &
            - tx2 * (u(2, i + 1, j, k) * up1 - u(2, i - 1, j, k) * um1 &
            + (u(5, i + 1, j, k) - square(i + 1, j, k) - u(5, i - 1, j, k) &
            + square(i - 1, j, k)) * c2)
        rhs(3, i, j, k) = rhs(3, i, j, k) + dx3tx1 * (u(3, i + 1, j, k) - 2.0d0 * u(3, i, j, k) &
            + u(3, i - 1, j, k)) + xxcon2 * (vs(i + 1, j, k) - 2.0d0 * vs(i, j, k) &
            + vs(i - 1, j, k)) - tx2 * (u(3, i + 1, j, k) * up1 - u(3, i - 1, j, k) * um1)
        rhs(4, i, j, k) = rhs(4, i, j, k) + dx4tx1 * (u(4, i + 1, j, k) - 2.0d0 * u(4, i, j, k) &
            + u(4, i - 1, j, k)) + xxcon2 * (ws(i + 1, j, k) - 2.0d0 * ws(i, j, k) &
            + ws(i - 1, j, k)) - tx2 * (u(4, i + 1, j, k) * up1 - u(4, i - 1, j, k) * um1)
        rhs(5, i, j, k) = rhs(5, i, j, k) + dx5tx1 * (u(5, i + 1, j, k) - 2.0d0 * u(5, i, j, k) &
            + u(5, i - 1, j, k)) + xxcon2 * (qs(i + 1, j, k) - 2.0d0 * qs(i, j, k) &
            + qs(i - 1, j, k)) - tx2 * ((c1 * u(5, i + 1, j, k) - c2 * square(i + 1, j, k)) &
            * up1 - (c1 * u(5, i - 1, j, k) - c2 * square(i - 1, j, k)) * um1)
      end do
      do m = 1, 5
        i = 1
        rhs(m, i, j, k) = rhs(m, i, j, k) - dssp * (5.0d0 * u(m, i, j, k) &
            - 4.0d0 * u(m, i + 1, j, k) + u(m, i + 2, j, k))
        i = 2
        rhs(m, i, j, k) = rhs(m, i, j, k) - dssp * (-4.0d0 * u(m, i - 1, j, k) &
            + 6.0d0 * u(m, i, j, k) - 4.0d0 * u(m, i + 1, j, k) + u(m, i + 2, j, k))
      end do
      do i = 3, nx - 4
        do m = 1, 5
          rhs(m, i, j, k) = rhs(m, i, j, k) - dssp * (u(m, i - 2, j, k) &
              - 4.0d0 * u(m, i - 1, j, k) + 6.0d0 * u(m, i, j, k) &
              - 4.0d0 * u(m, i + 1, j, k) + u(m, i + 2, j, k))
        end do
      end do
      do m = 1, 5
        i = nx - 3
        rhs(m, i, j, k) = rhs(m, i, j, k) - dssp * (u(m, i - 2, j, k) &
            - 4.0d0 * u(m, i - 1, j, k) + 6.0d0 * u(m, i, j, k) - 4.0d0 * u(m, i + 1, j, k))
        i = nx - 2
        rhs(m, i, j, k) = rhs(m, i, j, k) - dssp * (u(m, i - 2, j, k) &
            - 4.0d0 * u(m, i - 1, j, k) + 5.0d0 * u(m, i, j, k))
      end do
    end do
  end do
  !$omp parallel do default(shared) private(i, j, vijk, vp1, vm1)
  do k = 1, nz - 2
    do j = 1, ny - 2
      do i = 1, nx - 2
        vijk = vs(i, j, k)
        vp1 = vs(i, j + 1, k)
        vm1 = vs(i, j - 1, k)
        rhs(1, i, j, k) = rhs(1, i, j, k) + dy1ty1 * (u(1, i, j + 1, k) - 2.0d0 * u(1, i, j, k) &
            + u(1, i, j - 1, k)) - ty2 * (u(3, i, j + 1, k) - u(3, i, j - 1, k)) &
            + 0.0d0 * (vp1 - 2.0d0 * vijk + vm1)
      end do
    end do
  end do
  !$omp parallel do default(shared) private(i, j, m)
  do k = 1, nz - 2
    do j = 1, ny - 2
      do i = 1, nx - 2
        do m = 1, 5
          rhs(m, i, j, k) = rhs(m, i, j, k) * dt
        end do
      end do
    end do
  end do
  write (*, '(5es24.15)') (sum(rhs(m, :, :, :)), m = 1, 5)
  write (*, '(3es24.15)') rhs(2, 1, 1, 1), rhs(5, nx - 2, ny - 2, nz - 2), sum(rho_i)
end program bt_rhs
