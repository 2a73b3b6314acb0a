! translate-test: translate=--directives=openacc rtol=1e-12
! MD with a Verlet neighbour list: list(k, i) of numneigh(i) partners built on the host,
! the force loop over atoms (gang) with an inner loop over neighbours, a cutoff test,
! per-atom force accumulation in private scalars, and energy reduction; a half-list variant
! with Newton's third law through atomic updates of f(:, j).
program md
  implicit none
  integer, parameter :: nat = 216, maxn = 80
  real(8), parameter :: box = 7.0d0, rc = 2.2d0
  real(8) :: x(3, nat), f(3, nat), fh(3, nat), dx, dy, dz, r2, sr2, sr6, ff, epot, fxi, fyi, fzi
  integer :: nlist(maxn, nat), numneigh(nat), i, j, k, ix, iy, iz
  i = 0
  do iz = 0, 5
    do iy = 0, 5
      do ix = 0, 5
        i = i + 1
        x(1, i) = (ix + 0.5d0 + 0.07d0 * mod(i * 3, 5)) * box / 6
        x(2, i) = (iy + 0.5d0 + 0.05d0 * mod(i * 7, 3)) * box / 6
        x(3, i) = (iz + 0.5d0 - 0.04d0 * mod(i, 4)) * box / 6
      end do
    end do
  end do
  numneigh = 0
  do i = 1, nat
    do j = 1, nat
      if (j == i) cycle
      dx = x(1, i) - x(1, j)
      dy = x(2, i) - x(2, j)
      dz = x(3, i) - x(3, j)
      dx = dx - box * anint(dx / box)
      dy = dy - box * anint(dy / box)
      dz = dz - box * anint(dz / box)
      if (dx * dx + dy * dy + dz * dz < (rc + 0.3d0)**2 .and. numneigh(i) < maxn) then
        numneigh(i) = numneigh(i) + 1
        nlist(numneigh(i), i) = j
      end if
    end do
  end do
  epot = 0.0d0
  !$acc parallel loop gang private(fxi, fyi, fzi, k, j, dx, dy, dz, r2, sr2, sr6, ff) &
  !$acc& reduction(+:epot) copyin(x, nlist, numneigh) copyout(f)
  do i = 1, nat
    fxi = 0.0d0
    fyi = 0.0d0
    fzi = 0.0d0
    do k = 1, numneigh(i)
      j = nlist(k, i)
      dx = x(1, i) - x(1, j)
      dy = x(2, i) - x(2, j)
      dz = x(3, i) - x(3, j)
      dx = dx - box * anint(dx / box)
      dy = dy - box * anint(dy / box)
      dz = dz - box * anint(dz / box)
      r2 = dx * dx + dy * dy + dz * dz
      if (r2 < rc * rc) then
        sr2 = 1.0d0 / r2
        sr6 = sr2 * sr2 * sr2
        ff = 48.0d0 * sr2 * sr6 * (sr6 - 0.5d0)
        fxi = fxi + ff * dx
        fyi = fyi + ff * dy
        fzi = fzi + ff * dz
        epot = epot + 2.0d0 * sr6 * (sr6 - 1.0d0)
      end if
    end do
    f(1, i) = fxi
    f(2, i) = fyi
    f(3, i) = fzi
  end do
  fh = 0.0d0
  !$acc parallel loop private(k, j, dx, dy, dz, r2, sr2, sr6, ff)
  do i = 1, nat
    do k = 1, numneigh(i)
      j = nlist(k, i)
      if (j > i) then
        dx = x(1, i) - x(1, j)
        dy = x(2, i) - x(2, j)
        dz = x(3, i) - x(3, j)
        dx = dx - box * anint(dx / box)
        dy = dy - box * anint(dy / box)
        dz = dz - box * anint(dz / box)
        r2 = dx * dx + dy * dy + dz * dz
        if (r2 < rc * rc) then
          sr2 = 1.0d0 / r2
          sr6 = sr2 * sr2 * sr2
          ff = 48.0d0 * sr2 * sr6 * (sr6 - 0.5d0)
          !$acc atomic update
          fh(1, i) = fh(1, i) + ff * dx
          !$acc atomic update
          fh(2, i) = fh(2, i) + ff * dy
          !$acc atomic update
          fh(3, i) = fh(3, i) + ff * dz
          !$acc atomic update
          fh(1, j) = fh(1, j) - ff * dx
          !$acc atomic update
          fh(2, j) = fh(2, j) - ff * dy
          !$acc atomic update
          fh(3, j) = fh(3, j) - ff * dz
        end if
      end if
    end do
  end do
  write (*, '(es24.15)') epot
  write (*, '(3es24.15)') f(:, 1), f(:, nat / 2), f(:, nat)
  write (*, '(3es24.15)') fh(:, 1), fh(:, nat / 2), fh(:, nat)
end program md
