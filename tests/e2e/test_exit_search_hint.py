"""EXIT in a region loop (h71, after h67's `exit1.f90`).  The search shape (the first index
where a condition holds, captured by ``k = i`` before the EXIT) is translated as a MIN
reduction, mapped in parallel, with the original's results (also when nothing is found, and
per row inside an outer loop).  Before, every EXIT was refused with "EXIT statement is not
supported inside a kernel region".

h78: any other EXIT (``if (c) exit``, ``exit rows`` of an outer loop) sets a flag that guards
the rest of its loop, which therefore never runs in parallel; loops around it may
(`bench/h78_hunt/exit78.f90`: Newton iterations per point, a running sum up to a threshold,
a named EXIT; before: "EXIT statement is not supported ... for a search ...")."""

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


def test_another_exit_keeps_its_loop_sequential(tmp_path: Path) -> None:
    src = tmp_path / "other.f90"
    src.write_text(OTHER)
    check_sample(src, tmp_path)
    assert "reqd_work_group_size(1, 1, 1)" in (tmp_path / "out" / "other.cl").read_text()


def test_exits_of_inner_loops_leave_the_outer_loops_parallel(tmp_path: Path) -> None:
    src = tmp_path / "exit78.f90"
    src.write_text((REPO / "bench" / "h78_hunt" / "exit78.f90").read_text())
    check_sample(src, tmp_path)
    kernels = (tmp_path / "out" / "exit78.cl").read_text().split("__kernel")[1:]
    heads = {k.split("(__global")[0].split()[-1]: k.split("{")[0] for k in kernels}
    # the point loop of the Newton iterations and the column loop of `exit rows` in
    # parallel; the running sum's loop (its EXIT reads what the loop sums) on one work item
    assert "reqd_work_group_size(256, 1, 1)" in heads["newton"]
    assert "reqd_work_group_size(256, 1, 1)" in heads["fneg"]
    assert "reqd_work_group_size(1, 1, 1)" in heads["pre_k1"]


def test_an_exit_of_another_construct_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "blk.f90"
    src.write_text("""\
subroutine s(a, n)
  integer, intent(in) :: n
  real(8) :: a(n)
  integer :: i
  !$translate kernel
  do i = 1, n
    outer: block
      if (a(i) < 0.0d0) exit outer
      a(i) = sqrt(a(i))
    end block outer
  end do
  !$translate end kernel
end subroutine
""")
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("blk.f90:8:25: error: EXIT outer of a construct that is not a counted DO loop of "
            "the region is not supported inside a kernel region; put the statements it skips "
            "under an IF") in done.stderr


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
