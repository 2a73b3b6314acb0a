"""OpenACC ``loop`` directives inside ``parallel`` / ``kernels`` constructs (h70; left by the
h62 hunt).  The row sum ``!$acc parallel`` / ``!$acc loop gang`` / ``s = 0`` / ``!$acc loop
vector reduction(+:s)`` was refused ("shared variable 's' is written by every iteration ...:
add reduction(+:s)"): the claim of a ``loop`` did not know its construct, and OpenACC makes a
scalar of a ``parallel`` construct firstprivate (one copy per gang), a ``loop gang`` running a
gang's iterations one after another.  ``kernels loop`` (and ``loop gang`` in ``kernels``) over
a scalar sum stopped with an internal error (exit 2: the proof of a claim that declares no
loop parallel named its first loop).  A private scalar of a claim that the procedure reads
after the loop was not refused when it was a dummy argument (its value after the loop is the
caller's in OpenACC/OpenMP, the last iteration's sequentially: exit 0, other numbers).  Real
races stay refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

HUNT = REPO / "bench" / "h70_hunt"

KERNELS_SUM = """\
! translate-test: translate=--directives=openacc rtol=1e-13
program ksum
  implicit none
  integer, parameter :: n = 37
  real(8) :: a(n), s
  integer :: i
  do i = 1, n
    a(i) = dble(i) * 0.25d0
  end do
  s = 0
  !$acc kernels loop
  do i = 1, n
    s = s + a(i)
  end do
  print '(ES24.16)', s
end program ksum
"""

RACES = """\
subroutine r1(n, a, b)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  real(8) :: s
  integer :: j
  s = 0
  !$acc parallel
  !$acc loop gang
  do j = 1, n
    s = s + a(j)
    b(j) = s
  end do
  !$acc end parallel
end subroutine
"""


def _translate(src: Path, tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--directives=openacc"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)


@pytest.mark.parametrize("name", ["acc_rows_construct.f90", "acc_rows_construct.c"])
def test_gang_loops_in_parallel_and_kernels_constructs_match(name: str,
                                                             tmp_path: Path) -> None:
    check_sample(HUNT / name, tmp_path, ("-Werror",))


def test_a_scalar_sum_in_kernels_loop_matches(tmp_path: Path) -> None:
    src = tmp_path / "ksum.f90"
    src.write_text(KERNELS_SUM)
    check_sample(src, tmp_path)


@pytest.mark.parametrize("change, message", [
    ((), "races.f90:9:3: error: '!$acc loop': firstprivate variable 's' is read before it "
         "is written in an iteration"),
    ((("s = s + a(j)", "s = a(j) * 2"), ("loop gang", "loop gang vector")),
     "races.f90:9:3: error: '!$acc loop': shared variable 's' is written by every iteration "
     "of the parallel loop over j (a race): add private(s)"),
    ((("s = s + a(j)", "s = a(j) * 2"), ("loop gang", "loop independent gang"),
      ("parallel", "kernels")),
     "races.f90:9:3: error: '!$acc loop independent': shared variable 's' is written by "
     "every iteration of the parallel loop over j (a race): add private(s)"),
])
def test_races_in_constructs_stay_refused(change: tuple, message: str,
                                          tmp_path: Path) -> None:
    text = RACES
    for old, new in change:
        text = text.replace(old, new)
    src = tmp_path / "races.f90"
    src.write_text(text)
    done = _translate(src, tmp_path)
    assert done.returncode == 1, done.stderr
    assert message in done.stderr


def test_a_dummy_read_after_a_gang_loop_is_refused(tmp_path: Path) -> None:
    """The copy of each gang is not the dummy: ``b(1) = s`` after the loop reads the
    caller's value in OpenACC, the last iteration's in the program without directives."""
    text = (RACES.replace("(n, a, b)", "(n, a, b, s)").replace("b(n)\n  real(8) :: s",
                                                                "b(n), s")
            .replace("s = s + a(j)", "s = a(j) * 2").replace("  s = 0\n", "")
            .replace("!$acc end parallel\n", "!$acc end parallel\n  b(1) = s\n"))
    src = tmp_path / "after.f90"
    src.write_text(text)
    done = _translate(src, tmp_path)
    assert done.returncode == 1, done.stderr
    assert ("after.f90:7:3: error: '!$acc loop': firstprivate variable 's' is read after "
            "the loop: its value there is undefined in OpenACC") in done.stderr


THREE_LEVELS = """\
subroutine three(n, a, b)
  integer, intent(in) :: n
  real(8), intent(in) :: a(n, n, n)
  real(8), intent(out) :: b(n, n)
  real(8) :: t
  integer :: i, j, k
  !$acc parallel
  !$acc loop gang
  do k = 1, n
    !$acc loop worker
    do j = 1, n
      t = 0
      !$acc loop vector reduction(+:t)
      do i = 1, n
        t = t + a(i, j, k)
      end do
      b(j, k) = t
    end do
  end do
  !$acc end parallel
end subroutine
"""


def test_a_scalar_the_workers_of_a_gang_share_is_a_race_fixed_by_private(
        tmp_path: Path) -> None:
    """The gang's copy of ``t`` is shared by its workers: a race, which ``private(t)`` on
    the worker loop fixes (the message said ``add reduction(+:t)``, which sums the rows)."""
    src = tmp_path / "three.f90"
    src.write_text(THREE_LEVELS)
    done = _translate(src, tmp_path)
    assert done.returncode == 1, done.stderr
    assert ("three.f90:10:5: error: '!$acc loop': shared variable 't' is written by every "
            "iteration of the parallel loop over j (a race): add private(t)") in done.stderr
