"""A reduction directive on an inner loop whose variable each iteration of the outer parallel
loop resets (h62 differential hunt: the row sum of ported OpenACC codes, ``!$acc parallel
loop gang`` over j, ``s = 0``, ``!$acc loop vector reduction(+:s)`` over i, ``b(j) = s``; in
OpenMP ``!$omp simd reduction(+:t)`` inside ``!$omp parallel do private(t)``).  Before, the
inner claim was proven on its nest alone, where the private ``s`` had no value: "mapping i to
g.0 makes s private to each work item, but iteration i=1, j=1 reads s before the region writes
it" (exit 1); and without a clause on the ``parallel loop``, ``s`` was taken as shared
("shared variable 's' is written by every iteration ...: add reduction(+:s)"), although
OpenACC makes a scalar of a ``parallel`` construct firstprivate, one copy per gang, and a
loop partitioned among gangs only runs a gang's iterations one after another.  Now the inner
loops reduce into the outer iteration's copy, and the scalars of a ``parallel loop gang``
(no worker or vector level) are firstprivate; with vector lanes sharing the copy, a race."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
! translate-test: translate=--directives=openacc,openmp rtol=1e-13
program rows
  implicit none
  integer, parameter :: n = 37, m = 29
  real(8) :: a(m, n), b(n), c(n), d(n), s, t, u
  integer :: i, j
  do j = 1, n
    do i = 1, m
      a(i, j) = dble(mod(i * j, 11)) * 0.25d0 - 1.0d0
    end do
  end do
  !$acc parallel loop gang
  do j = 1, n
    s = 0.0d0
    !$acc loop vector reduction(+:s)
    do i = 1, m
      s = s + a(i, j)
    end do
    b(j) = s
  end do
  !$acc parallel loop gang private(u)
  do j = 1, n
    u = -1.0d30
    !$acc loop vector reduction(max:u)
    do i = 1, m
      u = max(u, a(i, j) * dble(j))
    end do
    d(j) = u
  end do
  !$omp parallel do private(t)
  do j = 1, n
    t = 0.0d0
    !$omp simd reduction(+:t)
    do i = 1, m
      t = t + a(i, j) * a(i, j)
    end do
    c(j) = t
  end do
  write(*, '(3ES24.16)') b(1), b(n), sum(b)
  write(*, '(3ES24.16)') c(1), c(n), sum(c)
  write(*, '(3ES24.16)') d(1), d(n), sum(d)
end program rows
"""

READ_AFTER = """\
subroutine last(n, a, b, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n), s
  integer :: j
  real(8) :: w
  !$acc parallel loop gang
  do j = 1, n
    w = a(j) * 2.0d0
    b(j) = w
  end do
  s = w
end subroutine last
"""


def test_inner_reductions_into_the_outer_iterations_copy_match(tmp_path: Path) -> None:
    src = tmp_path / "rows.f90"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path, ("-Werror",))


def test_a_firstprivate_scalar_read_after_the_loop_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "last.f90"
    src.write_text(READ_AFTER)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--directives=openacc"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("last.f90:8:3: error: '!$acc parallel loop': firstprivate variable 'w' is read "
            "after the loop: its value there is undefined in OpenACC") in done.stderr


def test_vector_lanes_share_the_gangs_copy(tmp_path: Path) -> None:
    """Without ``gang`` alone, the gang's copy is shared by its lanes: still a race."""
    src = tmp_path / "lanes.f90"
    src.write_text(READ_AFTER.replace("parallel loop gang", "parallel loop gang vector")
                   .replace("  s = w\n", ""))
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--directives=openacc"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("lanes.f90:8:3: error: '!$acc parallel loop': shared variable 'w' is written by "
            "every iteration of the parallel loop over j (a race): add private(w)") in done.stderr
