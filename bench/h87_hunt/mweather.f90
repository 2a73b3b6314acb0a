! translate-test: translate=--directives=openacc rtol=1e-12
! miniWeather-like: a halo'd 2-D state with 4 variables state(i,j,v), x-direction fluxes
! from a 4-point stencil with hyperviscosity, tendencies from flux differences, an RK-like
! update, the time loop inside a data region, and mass/energy reductions at the end.
module mw_const
  implicit none
  integer, parameter :: nx = 40, nz = 24, hs = 2, nv = 4
  integer, parameter :: id_dens = 1, id_umom = 2, id_wmom = 3, id_rhot = 4
  real(8), parameter :: dx = 0.5d0, dt = 0.01d0, hv_beta = 0.05d0
end module mw_const

program mweather
  use mw_const
  implicit none
  real(8) :: state(1-hs:nx+hs, 1-hs:nz+hs, nv), state_tmp(1-hs:nx+hs, 1-hs:nz+hs, nv)
  real(8) :: flux(nx+1, nz+1, nv), tend(nx, nz, nv)
  real(8) :: hy_dens(1-hs:nz+hs), hy_theta(1-hs:nz+hs)
  real(8) :: mass, te, r, u, w, t, p, d3, vals(nv), coef
  integer :: i, j, k, ll, step
  do k = 1-hs, nz+hs
    hy_dens(k) = 1.0d0 + 0.01d0 * k
    hy_theta(k) = 300.0d0 + 0.1d0 * k
    do i = 1-hs, nx+hs
      state(i, k, id_dens) = 0.01d0 * sin(0.3d0 * i) * cos(0.2d0 * k)
      state(i, k, id_umom) = 0.1d0 + 0.001d0 * mod(i * 7 + k, 11)
      state(i, k, id_wmom) = 0.002d0 * mod(i + 3 * k, 5)
      state(i, k, id_rhot) = 0.5d0 * cos(0.1d0 * (i + k))
    end do
  end do
  !$acc data copy(state) create(state_tmp, flux, tend) copyin(hy_dens, hy_theta)
  do step = 1, 6
    ! halo exchange, periodic in x
    !$acc parallel loop collapse(2)
    do ll = 1, nv
      do k = 1, nz
        state(-1, k, ll) = state(nx-1, k, ll)
        state(0, k, ll) = state(nx, k, ll)
        state(nx+1, k, ll) = state(1, k, ll)
        state(nx+2, k, ll) = state(2, k, ll)
      end do
    end do
    ! fluxes at cell interfaces
    !$acc parallel loop collapse(2) private(ll, vals, d3, r, u, w, t, p, coef)
    do k = 1, nz
      do i = 1, nx+1
        coef = -hv_beta * dx / (16 * dt)
        do ll = 1, nv
          vals(ll) = -state(i-2, k, ll) / 12 + 7 * state(i-1, k, ll) / 12 &
                     + 7 * state(i, k, ll) / 12 - state(i+1, k, ll) / 12
        end do
        d3 = -state(i-2, k, id_dens) + 3 * state(i-1, k, id_dens) &
             - 3 * state(i, k, id_dens) + state(i+1, k, id_dens)
        r = vals(id_dens) + hy_dens(k)
        u = vals(id_umom) / r
        w = vals(id_wmom) / r
        t = (vals(id_rhot) + hy_dens(k) * hy_theta(k)) / r
        p = 0.4d0 * (r * t)**1.4d0
        flux(i, k, id_dens) = r * u - coef * d3
        flux(i, k, id_umom) = r * u * u + p - coef * d3
        flux(i, k, id_wmom) = r * u * w - coef * d3
        flux(i, k, id_rhot) = r * u * t - coef * d3
      end do
    end do
    !$acc parallel loop collapse(3)
    do ll = 1, nv
      do k = 1, nz
        do i = 1, nx
          tend(i, k, ll) = -(flux(i+1, k, ll) - flux(i, k, ll)) / dx
        end do
      end do
    end do
    !$acc parallel loop collapse(3)
    do ll = 1, nv
      do k = 1, nz
        do i = 1, nx
          state_tmp(i, k, ll) = state(i, k, ll) + dt * tend(i, k, ll)
          state(i, k, ll) = 0.5d0 * (state(i, k, ll) + state_tmp(i, k, ll))
        end do
      end do
    end do
  end do
  mass = 0.0d0
  te = 0.0d0
  !$acc parallel loop collapse(2) reduction(+:mass, te) private(r, u, w)
  do k = 1, nz
    do i = 1, nx
      r = state(i, k, id_dens) + hy_dens(k)
      u = state(i, k, id_umom) / r
      w = state(i, k, id_wmom) / r
      mass = mass + r * dx * dx
      te = te + 0.5d0 * r * (u * u + w * w) * dx * dx
    end do
  end do
  !$acc end data
  write (*, '(2es24.15)') mass, te
  write (*, '(4es24.15)') state(1, 1, :), state(nx, nz, :), state(17, 9, :)
end program mweather
