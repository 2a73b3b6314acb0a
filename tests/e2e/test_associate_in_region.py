"""ASSOCIATE inside a region (h71, after h67's `assoc1.f90`): an associate name of a scalar
variable (``c => u(i, j)``) is that element (reads and writes), one of an expression its value
at entry.  Before, "ASSOCIATE construct is not supported inside a kernel region".  Array
selectors, and a construct that changes what a selector's subscripts read, are refused with
what to write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

MOVED = """\
subroutine s(a, n)
  integer, intent(in) :: n
  real(8) :: a(n)
  integer :: i, k
  !$translate kernel
  do i = 1, n
    k = i
    associate (x => a(k))
      k = 1
      x = 2.0d0
    end associate
  end do
  !$translate end kernel
end subroutine
"""

SECTION = """\
subroutine t(a, n)
  integer, intent(in) :: n
  real(8) :: a(n, n)
  integer :: i
  !$translate kernel
  do i = 1, n
    associate (col => a(:, i))
      col = 0.0d0
    end associate
  end do
  !$translate end kernel
end subroutine
"""


@pytest.mark.parametrize("path", ["h71_hunt/assoc71.f90", "h67_hunt/assoc1.f90"])
def test_associate_names_of_scalars(tmp_path: Path, path: str) -> None:
    src = tmp_path / Path(path).name
    src.write_text((REPO / "bench" / path).read_text())
    check_sample(src, tmp_path)


def _error(tmp_path: Path, text: str) -> str:
    src = tmp_path / "as.f90"
    src.write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_array_selectors_and_moved_subscripts_are_refused(tmp_path: Path) -> None:
    err = _error(tmp_path, MOVED)
    assert ("as.f90:8:16: error: the ASSOCIATE construct assigns 'k', which the subscripts of "
            "'x' => a(k) read (they are evaluated once, on entry); write the element inside "
            "the construct instead") in err
    err = _error(tmp_path, SECTION)
    assert ("as.f90:7:16: error: associate name 'col' of the array a(:, i) inside a kernel "
            "region is not supported (scalar selectors are); write a(:, i) instead") in err
