! translate-test: translate=--directives=openacc,translate
! SNAP-like sweep in Fortran: quadrant loop with directions chosen at run time
! (ist = -1 or 1; the cell index mapped from a forward counter, i = i1 + (ii-1)*ist, since
! a DO step must be a constant in a region: sweep_step.f90), the inflow from upstream,
! a diagonal (KBA) parallel loop with !$acc parallel loop over cells of a diagonal, and a
! translate region sweeping all four quadrants one after another (automatic mapping).
program sweep
  implicit none
  integer, parameter :: nx = 24, ny = 18
  real(8) :: psi(0:nx+1, 0:ny+1), q(nx, ny), sig(nx, ny), flux(nx, ny)
  real(8) :: mu, eta, v
  integer :: i, j, ii, jj, d, ilo, ihi, quad, ist, jst, i1, i2, j1, j2
  do j = 1, ny
    do i = 1, nx
      q(i, j) = 1.0d0 + 0.1d0 * mod(i * 5 + j * 3, 7)
      sig(i, j) = 0.4d0 + 0.05d0 * mod(i + 2 * j, 3)
    end do
  end do
  flux = 0.0d0
  psi = 0.0d0
  mu = 0.55d0
  eta = 0.8d0
  do d = 2, nx + ny
    ilo = max(1, d - ny)
    ihi = min(nx, d - 1)
    !$acc parallel loop private(j, v)
    do i = ilo, ihi
      j = d - i
      v = (q(i, j) + 2 * mu * psi(i - 1, j) + 2 * eta * psi(i, j - 1)) &
          / (sig(i, j) + 2 * mu + 2 * eta)
      psi(i, j) = v
      flux(i, j) = flux(i, j) + 0.25d0 * v
    end do
  end do
  !$translate kernel quads
  do quad = 1, 4
    ist = 1
    jst = 1
    if (quad == 2 .or. quad == 3) ist = -1
    if (quad >= 3) jst = -1
    i1 = 1
    i2 = nx
    if (ist < 0) then
      i1 = nx
      i2 = 1
    end if
    j1 = 1
    j2 = ny
    if (jst < 0) then
      j1 = ny
      j2 = 1
    end if
    do jj = 1, ny
      j = j1 + (jj - 1) * jst
      do ii = 1, nx
        i = i1 + (ii - 1) * ist
        psi(i, j) = (q(i, j) + 2 * mu * psi(i - ist, j) + 2 * eta * psi(i, j - jst)) &
                    / (sig(i, j) + 2 * mu + 2 * eta)
        flux(i, j) = flux(i, j) + 0.25d0 * psi(i, j)
      end do
    end do
  end do
  !$translate end kernel
  write (*, '(4es26.17)') sum(flux), flux(1, 1), flux(nx, ny), flux(5, 11)
end program sweep
