"""Integer locals a loop body sets from its loop variables, read in the rest of the body (h87's
held-out hunt, NPB MG's rprj3 in `bench/h87_hunt/mg.f90`): ``i1 = 2*j1 - 2`` then
``x1(i1 - 1) = ...`` with x1 a private work array.  Read as the variable, the subscript was
not affine: the private array could not be proved private and the OpenMP loop was refused
("a subscript is not affine").  The reads now take the value (`frontends.fortran.
index_values`), where nothing after the assignment in the block changes the variable or
what its value reads; the second region checks those limits keep the sequential meaning
(the variable assigned again, incremented, its value reading a variable changed later).
Each program runs on PoCL against the original."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

F_RPRJ3 = """\
! translate-test: translate=--directives=openmp,translate
program rprj
  implicit none
  integer, parameter :: m = 34, mk = 18
  real(8) :: r(m, m, m), s(mk, mk, mk), x1(64), y1(64), x2, y2, t(m), c(m)
  integer :: i1, i2, i3, j1, j2, j3, k, off
  do i3 = 1, m
    do i2 = 1, m
      do i1 = 1, m
        r(i1, i2, i3) = dble(mod(i1 * 3 + i2 * 5 + i3 * 7, 17)) - 8.0d0
      end do
    end do
  end do
  s = 0.0d0
  !$omp parallel do default(shared) private(j1, j2, j3, i1, i2, i3, x1, y1, x2, y2)
  do j3 = 2, mk - 1
    i3 = 2 * j3 - 2
    do j2 = 2, mk - 1
      i2 = 2 * j2 - 2
      do j1 = 2, mk
        i1 = 2 * j1 - 2
        x1(i1 - 1) = r(i1 - 1, i2 - 1, i3) + r(i1 - 1, i2 + 1, i3)
        y1(i1 - 1) = r(i1 - 1, i2 - 1, i3 - 1) + r(i1 - 1, i2 + 1, i3 + 1)
      end do
      do j1 = 2, mk - 1
        i1 = 2 * j1 - 2
        y2 = r(i1, i2 - 1, i3 - 1) + r(i1, i2 + 1, i3 + 1)
        x2 = r(i1, i2 - 1, i3) + r(i1, i2, i3 + 1)
        s(j1, j2, j3) = 0.5d0 * r(i1, i2, i3) + 0.25d0 * (r(i1 - 1, i2, i3) + x2) &
                        + 0.125d0 * (x1(i1 - 1) + x1(i1 + 1) + y2) &
                        + 0.0625d0 * (y1(i1 - 1) + y1(i1 + 1))
      end do
    end do
  end do
  print '(3f12.4)', s(2, 2, 2), s(9, 7, 5), s(mk - 1, mk - 1, mk - 1)
  off = 1
  !$translate kernel limits
  do k = 1, m
    i1 = k
    i1 = i1 + 1
    t(k) = dble(i1)
    i2 = k + off
    off = 2
    c(k) = dble(i2 + off)
  end do
  !$translate end kernel
  print '(4f8.1, i4)', t(1), t(m), c(1), c(m), i1
end program
"""


def test_index_values_make_subscripts_affine(tmp_path: Path) -> None:
    src = tmp_path / "rprj.f90"
    src.write_text(F_RPRJ3)
    check_sample(src, tmp_path)
