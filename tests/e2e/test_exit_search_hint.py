"""EXIT in a region loop (h71, after h67's `exit1.f90`).  The search shape (the first index
where a condition holds, captured by ``k = i`` before the EXIT) is translated as a MIN
reduction, mapped in parallel, with the original's results (also when nothing is found, and
per row inside an outer loop); any other EXIT is refused with that rewrite.  Before, every
EXIT was refused with "EXIT statement is not supported inside a kernel region"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

OTHER = """\
program other
  implicit none
  integer, parameter :: n = 20
  real(8) :: a(n)
  integer :: i
  a = 1.0d0
  !$translate kernel ex
  do i = 1, n
    if (i > 10) exit
    a(i) = 2.0d0
  end do
  !$translate end kernel
  print *, a
end program other
"""


def test_search_loops_are_min_reductions(tmp_path: Path) -> None:
    src = tmp_path / "search2.f90"
    src.write_text((REPO / "bench" / "h71_hunt" / "search2.f90").read_text())
    check_sample(src, tmp_path)
    kernels = (tmp_path / "out" / "search2.cl").read_text()
    assert "reqd_work_group_size(1, 1, 1)" not in kernels   # both searches in parallel
    assert "_tr_red[" in kernels and "min(" in kernels


def test_another_exit_is_refused_with_the_search_rewrite(tmp_path: Path) -> None:
    src = tmp_path / "other.f90"
    src.write_text(OTHER)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("other.f90:9:17: error: EXIT statement is not supported inside a kernel region: "
            "it ends every later iteration, which a parallel loop cannot; for a search (the "
            "first index where a condition holds) set k = <last> + 1 before the loop and write "
            "if (<condition>) k = min(k, i) in it, without exit (a MIN reduction, mapped in "
            "parallel)") in done.stderr


def test_the_index_after_a_search_is_not_guessed(tmp_path: Path) -> None:
    src = tmp_path / "after.f90"
    src.write_text("""\
subroutine s(a, n, k)
  integer, intent(in) :: n
  real(8) :: a(n)
  integer :: i, k
  !$translate kernel
  do i = 1, n
    if (a(i) > 0.5d0) then
      k = i
      exit
    end if
  end do
  !$translate end kernel
  print *, i
end subroutine
""")
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("after.f90:6:6: error: the value of DO variable 'i' after region 's_0' is used "
            "(line 13), but its loop ends at an EXIT (assign the index to a variable before "
            "the EXIT and read that); set it after the region") in done.stderr
