"""Comparisons of CHARACTER data in a region (h71 hunt: ``if (scheme == 'upwind')``,
``trim(bc) == 'periodic'``, ``tag(1:2) == 'x2'`` in loop bodies, module and named-constant
strings; SELECT CASE on a character selector).  Before, "'mode': character data is not
supported in a kernel region" (an OpenMP loop left as written).  Now the caller evaluates each such comparison at the call (the region
cannot change character data) and the kernel tests the flag; one that reads a loop variable
(``names(i) == 'skip'``) is refused with what to write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PER_ELEMENT = """\
subroutine s(a, names, n)
  integer, intent(in) :: n
  real(8) :: a(n)
  character(len=4) :: names(n)
  integer :: i
  !$translate kernel
  do i = 1, n
    if (names(i) == 'skip') a(i) = 0.0d0
  end do
  !$translate end kernel
end subroutine
"""


def test_character_comparisons_are_evaluated_by_the_caller(tmp_path: Path) -> None:
    src = tmp_path / "char72.f90"
    src.write_text((REPO / "bench" / "h71_hunt" / "char72.f90").read_text())
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / "char72.f90").read_text()
    assert "merge(1, 0, TRIM(bc) == 'periodic')" in rewritten


def test_select_case_of_character_data(tmp_path: Path) -> None:
    """``select case (trim(limiter))`` with values, lists, a range and DEFAULT, the string
    changed between calls (before: "SELECT CASE on a character selector is not supported")."""
    src = tmp_path / "char73.f90"
    src.write_text((REPO / "bench" / "h71_hunt" / "char73.f90").read_text())
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / "char73.f90").read_text()
    assert "(TRIM(limiter) >= 'a' .and. TRIM(limiter) <= 'm')" in rewritten


def test_a_comparison_per_element_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "chl.f90"
    src.write_text(PER_ELEMENT)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("chl.f90:8:9: error: comparison of character data names(i) == 'skip' inside a "
            "kernel region: only scalars of the region's procedure that the region does not "
            "change can be compared (the caller evaluates it); compare before the region into "
            "a logical variable or array") in done.stderr
