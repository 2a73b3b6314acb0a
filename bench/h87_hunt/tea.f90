! translate-test: translate=--directives=openmp rtol=1e-12
! TeaLeaf-like CG kernels on a halo'd 2-D grid (x(x_min-halo:x_max+halo, ...)):
! cg_init (two reductions in one loop), cg_calc_w (pw), cg_calc_ur (two arrays updated and
! rrn reduced in one loop), cg_calc_p, with Kx/Ky face coefficients; the solver loop on the
! host inside an OpenMP parallel region holding the worksharing loops.
module tea_grid
  implicit none
  integer, parameter :: x_min = 1, x_max = 30, y_min = 1, y_max = 22, halo = 2
end module tea_grid

program tea
  use tea_grid
  implicit none
  real(8), dimension(x_min-halo:x_max+halo, y_min-halo:y_max+halo) :: u, u0, p, r, w, kx, ky, z
  real(8) :: rro, pw, rrn, alpha, beta, rx, ry, bb
  integer :: j, k, it
  rx = 0.3d0
  ry = 0.2d0
  do k = y_min - halo, y_max + halo
    do j = x_min - halo, x_max + halo
      u0(j, k) = 1.0d0 + 0.1d0 * mod(j * 3 + k * 5, 11)
      u(j, k) = u0(j, k)
      kx(j, k) = 1.0d0 + 0.01d0 * mod(j + k, 3)
      ky(j, k) = 1.0d0 + 0.02d0 * mod(j * k, 4)
      p(j, k) = 0.0d0
      r(j, k) = 0.0d0
      w(j, k) = 0.0d0
      z(j, k) = 0.0d0
    end do
  end do
  rro = 0.0d0
  bb = 0.0d0
  !$omp parallel
  !$omp do reduction(+:rro, bb)
  do k = y_min, y_max
    do j = x_min, x_max
      w(j, k) = (1.0d0 + rx * (kx(j + 1, k) + kx(j, k)) + ry * (ky(j, k + 1) + ky(j, k))) &
                * u(j, k) - rx * (kx(j + 1, k) * u(j + 1, k) + kx(j, k) * u(j - 1, k)) &
                - ry * (ky(j, k + 1) * u(j, k + 1) + ky(j, k) * u(j, k - 1))
      r(j, k) = u0(j, k) - w(j, k)
      p(j, k) = r(j, k)
      rro = rro + r(j, k) * p(j, k)
      bb = bb + u0(j, k) * u0(j, k)
    end do
  end do
  !$omp end do
  !$omp end parallel
  do it = 1, 12
    pw = 0.0d0
    !$omp parallel do reduction(+:pw)
    do k = y_min, y_max
      do j = x_min, x_max
        w(j, k) = (1.0d0 + rx * (kx(j + 1, k) + kx(j, k)) + ry * (ky(j, k + 1) + ky(j, k))) &
                  * p(j, k) - rx * (kx(j + 1, k) * p(j + 1, k) + kx(j, k) * p(j - 1, k)) &
                  - ry * (ky(j, k + 1) * p(j, k + 1) + ky(j, k) * p(j, k - 1))
        pw = pw + w(j, k) * p(j, k)
      end do
    end do
    alpha = rro / pw
    rrn = 0.0d0
    !$omp parallel do reduction(+:rrn)
    do k = y_min, y_max
      do j = x_min, x_max
        u(j, k) = u(j, k) + alpha * p(j, k)
        r(j, k) = r(j, k) - alpha * w(j, k)
        z(j, k) = r(j, k)
        rrn = rrn + r(j, k) * z(j, k)
      end do
    end do
    beta = rrn / rro
    !$omp parallel do
    do k = y_min, y_max
      do j = x_min, x_max
        p(j, k) = z(j, k) + beta * p(j, k)
      end do
    end do
    rro = rrn
  end do
  write (*, '(4es24.15)') rro, bb, u(1, 1), u(x_max, y_max)
  write (*, '(3es24.15)') u(7, 9), p(15, 3), r(30, 22)
end program tea
