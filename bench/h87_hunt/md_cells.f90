! translate-test: translate=--directives=openmp rtol=1e-12
! CoMD-like link cells in Fortran: atoms binned into cells on the host (head/count arrays),
! the force loop over cells (OpenMP, schedule(dynamic)) then over the cell's atoms, the 27
! neighbour cells with periodic wrap through modulo, each neighbour cell's atoms (a trip count
! read from memory), the cutoff test, and energy and virial reductions inside the innermost
! loops; integer pair count reduced too.  Forces are stored by (slot, cell) as CoMD's boxes
! store atoms (f(:, ai) through the permutation order(:) would be a scatter: refused).
program md_cells
  implicit none
  integer, parameter :: nc = 3, ncell = nc**3, per = 4, nat = ncell * per
  real(8), parameter :: box = 6.0d0, rc2 = 2.3d0**2
  real(8) :: x(3, nat), f(3, per, ncell), epot, vir, dx(3), r2, s6
  integer :: first(ncell), cnt(ncell), order(nat)
  integer :: c, cx, cy, cz, nb, ox, oy, oz, cj, a, ai, m, aj, t, npairs
  a = 0
  do c = 1, ncell
    first(c) = a + 1
    cnt(c) = mod(c, per) + 1
    do t = 1, cnt(c)
      a = a + 1
      order(a) = a
      cx = mod(c - 1, nc)
      cy = mod((c - 1) / nc, nc)
      cz = (c - 1) / (nc * nc)
      x(1, a) = (cx + 0.15d0 + 0.2d0 * t) * box / nc
      x(2, a) = (cy + 0.3d0 + 0.1d0 * mod(t * 3 + c, 5)) * box / nc
      x(3, a) = (cz + 0.2d0 + 0.15d0 * mod(t + c * 7, 4)) * box / nc
    end do
  end do
  epot = 0.0d0
  vir = 0.0d0
  npairs = 0
  f = 0.0d0
  !$omp parallel do schedule(dynamic) default(shared) &
  !$omp& private(cx, cy, cz, nb, ox, oy, oz, cj, m, ai, aj, dx, r2, s6, t) &
  !$omp& reduction(+:epot, vir, npairs)
  do c = 1, ncell
    cx = mod(c - 1, nc)
    cy = mod((c - 1) / nc, nc)
    cz = (c - 1) / (nc * nc)
    do m = 0, cnt(c) - 1
      ai = order(first(c) + m)
      do nb = 0, 26
        ox = modulo(cx + mod(nb, 3) - 1, nc)
        oy = modulo(cy + mod(nb / 3, 3) - 1, nc)
        oz = modulo(cz + nb / 9 - 1, nc)
        cj = 1 + ox + nc * (oy + nc * oz)
        do t = 0, cnt(cj) - 1
          aj = order(first(cj) + t)
          if (aj == ai) cycle
          dx(1) = x(1, ai) - x(1, aj)
          dx(2) = x(2, ai) - x(2, aj)
          dx(3) = x(3, ai) - x(3, aj)
          dx = dx - box * anint(dx / box)
          r2 = dx(1)**2 + dx(2)**2 + dx(3)**2
          if (r2 < rc2) then
            s6 = 1.0d0 / r2**3
            f(:, m + 1, c) = f(:, m + 1, c) + 24.0d0 * s6 * (2.0d0 * s6 - 1.0d0) / r2 * dx
            epot = epot + 2.0d0 * s6 * (s6 - 1.0d0)
            vir = vir + 24.0d0 * s6 * (2.0d0 * s6 - 1.0d0)
            npairs = npairs + 1
          end if
        end do
      end do
    end do
  end do
  write (*, '(2es24.15, i8)') epot, vir, npairs
  write (*, '(3es24.15)') f(:, 1, 1), f(:, 2, ncell / 2), f(:, 1, ncell)
end program md_cells
