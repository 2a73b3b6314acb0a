"""A subscript guarded by the ``else`` branch of a boundary test (h57 differential hunt: the
shape of sweeps and stencils, ``if (j == 1) then; p = 0; else; p = x(j - 1, a); end if``).
The instances of a statement under ``.not. (j == 1)`` were taken over the whole loop (a negated
condition was left out of the set), so:

- with ``!$omp parallel do`` the loop was refused: "x[j - 2, a - 1] (0-based) reaches index -1
  ... the loop reads outside the declared extent of 'x'";
- with a shift that is an argument (``x(j - s, a)``) the region was translated assuming
  ``s == 0``, and the program stopped at run time: "region 'shiftk_0' was generated assuming
  s == 0, but s = 1" (exit 1), where the original runs;
- a SNAP-like sweep in both directions stopped alike ("assuming jstep < jst").

Now a negated (or ``.or.``) affine condition restricts the instances exactly: the regions are
translated, run in parallel and match the original."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

FORTRAN = """\
! translate-test: translate=--directives=openmp,translate
subroutine guarded(n, na, x, y)
  implicit none
  integer, intent(in) :: n, na
  real(8), intent(in) :: x(n, na)
  real(8), intent(out) :: y(n, na)
  integer :: a, j
  real(8) :: p
  !$omp parallel do private(j, p)
  do a = 1, na
    do j = 1, n
      if (j == 1) then
        p = 0
      else
        p = x(j - 1, a)
      end if
      y(j, a) = p + a
    end do
  end do
end subroutine guarded

subroutine shifted(n, na, s, x, y)
  implicit none
  integer, intent(in) :: n, na, s
  real(8), intent(in) :: x(n, na)
  real(8), intent(inout) :: y(n, na)
  integer :: a, j
  !$translate kernel
  do a = 1, na
    do j = 1, n
      if (.not. (j <= s .or. j > n - s)) then
        y(j, a) = y(j, a) + x(j - s, a) * x(j + s, a)
      end if
    end do
  end do
  !$translate end kernel
end subroutine shifted

subroutine sweep(n, na, jst, jstep, q, psi)
  implicit none
  integer, intent(in) :: n, na, jst, jstep
  real(8), intent(in) :: q(n)
  real(8), intent(inout) :: psi(n, na)
  integer :: a, j
  !$omp parallel do private(j)
  do a = 1, na
    if (jstep > 0) then
      do j = jst, n
        if (j /= jst) psi(j, a) = 0.5d0 * psi(j - jstep, a) + q(j) * a
      end do
    else
      do j = jst, 1, -1
        if (j /= jst) psi(j, a) = 0.5d0 * psi(j - jstep, a) + q(j) * a
      end do
    end if
  end do
end subroutine sweep

program main
  implicit none
  integer, parameter :: n = 20, na = 5
  real(8) :: x(n, na), y(n, na), q(n), psi(n, na)
  integer :: j, a
  do a = 1, na
    do j = 1, n
      x(j, a) = j * 10 + a
    end do
  end do
  q = [(0.1d0 * j, j = 1, n)]
  psi = 1
  call guarded(n, na, x, y)
  call shifted(n, na, 1, x, y)
  call shifted(n, na, 3, x, y)
  call sweep(n, na, 1, 1, q, psi)
  call sweep(n, na, n, -1, q, psi)
  print '(3es24.16)', sum(y), y(1, 1) + y(n, na), sum(psi)
end program main
"""


def test_subscripts_guarded_by_else_branches_translate_and_match(tmp_path: Path) -> None:
    src = tmp_path / "guarded.f90"
    src.write_text(FORTRAN)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "checked"), "--directives", "openmp,translate",
                           f"--report={tmp_path / 'report.txt'}"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "report.txt").read_text()
    assert "'!$omp parallel do' at line 9: proven: loops a parallel" in report
    assert "'!$omp parallel do' at line 45: proven: loops a parallel" in report
    check_sample(src, tmp_path)


VARIABLE_STEP = """\
subroutine sweep_step(n, na, jst, jend, jstep, psi)
  implicit none
  integer, intent(in) :: n, na, jst, jend, jstep
  real(8), intent(inout) :: psi(n, na)
  integer :: a, j
  !$translate kernel
  do a = 1, na
    do j = jst, jend, jstep
      psi(j, a) = psi(j, a) * 2
    end do
  end do
  !$translate end kernel
end subroutine sweep_step
"""


def test_variable_step_is_refused_with_what_to_write(tmp_path: Path) -> None:
    src = tmp_path / "step.f90"
    src.write_text(VARIABLE_STEP)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("step.f90:8:5: error: the step of a DO loop inside a kernel region must be an "
            "integer constant (got jstep); write one loop per sign of the step, each with a "
            "constant step (if (jstep > 0) then; do j = jst, jend; ...; else; do j = jst, "
            "jend, -1; ...; end if)") in done.stderr


C_GUARDED = (REPO / "bench" / "h57_hunt" / "else_guard.c")


def test_c_else_branch_read_matches(tmp_path: Path) -> None:
    """The same in C (``if (j == 0) p = 0; else p = x[a][j - 1];`` under ``omp parallel for``):
    before, "x[a][j - 1] reaches index -1 ...: the loop reads outside the declared extent"."""
    src = tmp_path / "else_guard.c"
    src.write_text(C_GUARDED.read_text())
    check_sample(src, tmp_path)
