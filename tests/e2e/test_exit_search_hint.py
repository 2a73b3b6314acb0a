"""EXIT in a region loop (h71, after h67's `exit1.f90`): refused, now with the rewrite of the
search shape it usually writes (the first index where a condition holds), and that rewrite is
translated in parallel (a MIN reduction) with the original's result.  Before, the refusal
said only "EXIT statement is not supported inside a kernel region"."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

SEARCH = """\
program search
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), t
  integer :: i, k
  do i = 1, n
    a(i) = sin(dble(i) * 0.01d0)
  end do
  t = 0.95d0
  !$translate kernel srch
  do i = 1, n
    if (a(i) > t) then
      k = i
      exit
    end if
  end do
  !$translate end kernel
  print *, k
end program search
"""

REWRITTEN = SEARCH.replace("""  do i = 1, n
    if (a(i) > t) then
      k = i
      exit
    end if
  end do
  !$translate end""", """  k = n + 1
  do i = 1, n
    if (a(i) > t) k = min(k, i)
  end do
  !$translate end""")


def test_exit_is_refused_with_the_search_rewrite(tmp_path: Path) -> None:
    src = tmp_path / "search.f90"
    src.write_text(SEARCH)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("search.f90:14:7: error: EXIT statement is not supported inside a kernel region: "
            "it ends every later iteration, which a parallel loop cannot; for a search (the "
            "first index where a condition holds) set k = <last> + 1 before the loop and write "
            "if (<condition>) k = min(k, i) in it, without exit (a MIN reduction, mapped in "
            "parallel)") in done.stderr


def test_the_rewrite_gives_the_first_index_in_parallel(tmp_path: Path) -> None:
    src = tmp_path / "search.f90"
    src.write_text(REWRITTEN)
    first = check_sample(src, tmp_path)
    orig = tmp_path / "orig.f90"
    orig.write_text(SEARCH)
    subprocess.run(["gfortran", str(orig), "-o", str(tmp_path / "orig")], check=True)
    assert subprocess.run([str(tmp_path / "orig")], capture_output=True, text=True,
                          check=True).stdout == first   # the rewrite means what EXIT did
    kernels = (tmp_path / "out" / "search.cl").read_text()
    assert "_tr_red[" in kernels and "min(" in kernels   # a work-group reduction
