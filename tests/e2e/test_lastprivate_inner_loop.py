"""``lastprivate`` of a variable the loop body writes in an inner loop (h62 differential
hunt: ``!$omp parallel do private(j) lastprivate(last)`` over ``do j = 1, m`` with ``m`` a
constant).  Before, any write inside an inner loop was taken as one that may not happen: the
directive was refused ("lastprivate variable 'last' is not written by the last iteration on
every path", exit 1 under -Werror=directive-race).  Now the write counts where isl proves that
the inner loops run at least one iteration at every point of the loops around them; where they
may run none (bounds from arguments) the refusal says so and names the line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
! translate-test: translate=--directives=openmp
program lp_inner
  implicit none
  integer, parameter :: n = 37, m = 23
  real(8) :: a(n, m), y(n), t
  integer :: i, j, last
  do j = 1, m
    do i = 1, n
      a(i, j) = dble(mod(i * 3 + j * 5, 13)) - 6.0d0
    end do
  end do
  !$omp parallel do private(j) lastprivate(last, t)
  do i = 1, n
    do j = 1, m
      last = i * 100 + j
      t = a(i, j) * 0.5d0
    end do
    y(i) = dble(last) + t
  end do
  write(*, '(I8, 3ES24.16)') last, t, y(1), y(n)
end program lp_inner
"""

MAYBE_EMPTY = """\
subroutine lp_maybe(n, m, y, last)
  implicit none
  integer, intent(in) :: n, m
  real(8), intent(out) :: y(n)
  integer, intent(out) :: last
  integer :: i, j
  !$omp parallel do private(j) lastprivate(last)
  do i = 1, n
    do j = 1, m
      last = i + j
    end do
    y(i) = 1.0d0
  end do
end subroutine lp_maybe
"""


def test_lastprivate_written_in_a_nonempty_inner_loop_matches(tmp_path: Path) -> None:
    src = tmp_path / "lp_inner.f90"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)


def test_an_inner_loop_that_may_run_no_iteration_is_named(tmp_path: Path) -> None:
    src = tmp_path / "lp_maybe.f90"
    src.write_text(MAYBE_EMPTY)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--directives=openmp"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("lp_maybe.f90:7:3: error: '!$omp parallel do': lastprivate variable 'last' is not "
            "written by the last iteration on every path (its write at line 10 is in an inner "
            "loop that may run no iteration): its value after the loop is then undefined in "
            "OpenMP") in done.stderr
