"""SELECT CASE inside a region (h57 differential hunt: per-element material or scheme choices
in real codes, ``select case (mat(j, k))`` setting scalars per element).  Before, a region
holding one was refused ("SELECT CASE construct is not supported inside a kernel region"; with
``--directives openmp`` the loop was left as written with a ``directive-untranslated``
warning).  Now an integer SELECT CASE is read as an IF ... ELSE IF chain: single values, ranges
(``2:4``, ``:-3``, ``9:``), several per CASE, named constants, CASE DEFAULT anywhere, and a
selector that a branch writes (evaluated once, before the construct).  Other selectors are an
error that says what to write instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

FORTRAN = """\
! translate-test: translate=--directives=openmp
module materials
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: steel = 3, water = 7
end module materials

subroutine classify(nx, ny, mat, rho, out, cnt)
  use materials
  implicit none
  integer, intent(in) :: nx, ny
  integer, intent(in) :: mat(nx, ny)
  real(dp), intent(in) :: rho(nx, ny)
  real(dp), intent(out) :: out(nx, ny)
  integer, intent(out) :: cnt(nx, ny)
  integer :: j, k, m, q
  real(dp) :: coef
  !$omp parallel do private(j, m, q, coef) collapse(2)
  do k = 1, ny
    do j = 1, nx
      m = mat(j, k)
      select case (m)
      case (0)
        coef = 1.5_dp
      case default
        coef = -0.125_dp
      case (1, steel)
        coef = 0.25_dp * m
      case (4:6, 11:)
        coef = sqrt(real(m, dp))
      case (:-3)
        coef = rho(j, k)
      end select
      q = m
      select case (q + 1)
      case (water + 1)
        q = 100           ! the selector was read before: the next branches do not see it
      case (101)
        q = -1
      case default
        q = q * 2
      end select
      out(j, k) = coef * rho(j, k)
      cnt(j, k) = q
    end do
  end do
end subroutine classify

program main
  use materials
  implicit none
  integer, parameter :: nx = 37, ny = 23
  integer :: mat(nx, ny), cnt(nx, ny)
  real(dp) :: rho(nx, ny), out(nx, ny)
  integer :: j, k
  do k = 1, ny
    do j = 1, nx
      mat(j, k) = mod(j * 7 + k * 3, 19) - 6
      rho(j, k) = 1 + 0.01_dp * j - 0.02_dp * k
    end do
  end do
  call classify(nx, ny, mat, rho, out, cnt)
  print '(es24.16, 2i10)', sum(out), sum(cnt), count(cnt == 100)
  print '(4es24.16)', out(1, 1), out(5, 7), out(nx, ny), out(20, 3)
end program main
"""

LOGICAL_SELECTOR = """\
subroutine s(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  integer :: i
  !$translate kernel
  do i = 1, n
    select case (a(i) > 0)
    case (.true.)
      b(i) = a(i)
    case default
      b(i) = 0
    end select
  end do
  !$translate end kernel
end subroutine s
"""


def test_select_case_in_a_region_matches(tmp_path: Path) -> None:
    src = tmp_path / "select_case.f90"
    src.write_text(FORTRAN)
    check_sample(src, tmp_path)


@pytest.mark.parametrize("models", ["translate"])
def test_logical_selector_is_refused_with_advice(models: str, tmp_path: Path) -> None:
    src = tmp_path / "sel_logical.f90"
    src.write_text(LOGICAL_SELECTOR)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--directives", models],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("sel_logical.f90:9:5: error: SELECT CASE on a logical selector is not supported "
            "inside a kernel region (integer selectors are); write it as an IF ... ELSE IF "
            "chain") in done.stderr
    assert "Traceback" not in done.stderr
