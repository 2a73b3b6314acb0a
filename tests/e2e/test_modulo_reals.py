"""Fortran MODULO of reals (h52 differential hunt): the kernel computes it as gfortran does,
fmod(a, p) plus p where the signs of a and p differ, and a zero result takes the sign of p.
Before, the kernel computed a - floor(a/p)*p, which differs from gfortran in the last bits
(0.2000000000000002 for modulo(3.3, 0.7) instead of 0.19999999999999996) and loses the sign
of a zero.  Real(8) and real(4), all sign combinations, zeros; outputs must be identical."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
subroutine mods(n, a, p, r, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n), p(n)
  real(8), intent(out) :: r(n)
  real(4), intent(out) :: s(n)
  integer :: i
  !$translate kernel mods_k
  do i = 1, n
     r(i) = modulo(a(i), p(i))
     s(i) = modulo(real(a(i)), 0.7)
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 12
  real(8) :: a(n) = [3.3d0, -3.3d0, 3.3d0, -3.3d0, 2.1d0, -2.1d0, 0d0, -0d0, 1.4d0, -1.4d0, &
                     1d-300, 7.77d0]
  real(8) :: p(n) = [0.7d0, 0.7d0, -0.7d0, -0.7d0, 0.7d0, -0.7d0, 0.7d0, -0.7d0, 0.7d0, &
                     -0.7d0, 0.7d0, -0.35d0]
  real(8) :: r(n)
  real(4) :: s(n)
  integer :: i
  call mods(n, a, p, r, s)
  do i = 1, n
     print '(es25.17, es16.8)', r(i), s(i)
  end do
end program
"""


def test_real_modulo_matches_gfortran_bit_for_bit(tmp_path: Path):
    src = tmp_path / "modulo_reals.f90"
    src.write_text(PROGRAM)
    out = check_sample(src, tmp_path)
    assert "1.99999999999999956E-01" in out        # modulo(3.3d0, 0.7d0) by gfortran
    assert "-0.00000000000000000E+00" in out       # modulo(-0d0, -0.7d0): sign of p
