"""OpenMP directives whose name takes an argument list, and the ``ordered(n)`` clause (h62
differential hunt).  Before, ``!$omp critical (name)``, ``!$omp end critical (name)``,
``!$omp threadprivate(/blk/)`` and ``!$omp flush(x)`` were each reported as "unknown OpenMP
directive 'critical' (did you mean 'critical'?)": the clause splitter stops at a word followed
by a parenthesis.  ``!$omp do ordered(1)`` stopped the translation: "unknown OpenMP clause
'ordered' on 'do' (did you mean 'order'?)", exit 1.  Now the named forms are the directives
they are (left as written, the loops holding them too) and an ordered loop is left as
written with its reason; both programs still compute what they did."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

CRITICAL = """\
! translate-test: translate=--directives=openmp
program crit
  implicit none
  integer, parameter :: n = 40
  real(8) :: a(n), big
  integer :: i, cnt, imax
  do i = 1, n
    a(i) = sin(dble(i) * 0.37d0) * 3.0d0
  end do
  cnt = 0
  big = -1.0d0
  imax = 0
  !$omp parallel do
  do i = 1, n
    if (a(i) > 1.0d0) then
      !$omp critical (counting)
      cnt = cnt + 1
      !$omp end critical (counting)
    end if
    !$omp critical(maxloc)
    if (a(i) > big) then
      big = a(i)
      imax = i
    end if
    !$omp end critical(maxloc)
    !$omp flush(big)
  end do
  write(*, '(I5, ES24.16, I5)') cnt, big, imax
end program crit
"""

ORDERED = """\
! translate-test: translate=--directives=openmp
program ord
  implicit none
  integer, parameter :: n = 30
  real(8) :: a(n), s(n), acc
  integer :: i
  do i = 1, n
    a(i) = sqrt(dble(i))
  end do
  acc = 0.0d0
  !$omp parallel do ordered(1)
  do i = 1, n
    a(i) = a(i) * 2.0d0
    !$omp ordered
    acc = acc + a(i)
    s(i) = acc
    !$omp end ordered
  end do
  !$omp end parallel do
  !$omp parallel do
  do i = 1, n
    a(i) = a(i) + s(i)
  end do
  write(*, '(3ES24.16)') acc, s(n), a(7)
end program ord
"""


def _report(src: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", str(out),
                           "--directives=openmp", "--report"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)


def test_named_critical_and_flush_are_known_directives(tmp_path: Path) -> None:
    src = tmp_path / "crit.f90"
    src.write_text(CRITICAL)
    check_sample(src, tmp_path, ("--all-outputs",))
    done = _report(src, tmp_path / "o2")
    assert done.returncode == 0, done.stderr
    assert "unknown OpenMP directive" not in done.stderr
    assert ("crit.f90:16: 'critical' left as written: a critical section serialises threads; "
            "it has no kernel form") in done.stderr
    assert "crit.f90:13: 'parallel do' left as written: its loop holds 'critical'" in done.stderr


def test_an_ordered_loop_is_left_as_written(tmp_path: Path) -> None:
    src = tmp_path / "ord.f90"
    src.write_text(ORDERED)
    check_sample(src, tmp_path)
    done = _report(src, tmp_path / "o2")
    assert done.returncode == 0, done.stderr
    assert ("ord.f90:11: 'parallel do' left as written: an ordered loop runs its ordered "
            "regions in sequence; it is not offloaded") in done.stderr
