"""ASSOCIATE inside a region (h71, after h67's `assoc1.f90`): an associate name of a scalar
variable (``c => u(i, j)``) is that element (reads and writes), one of an expression its value
at entry.  Before, "ASSOCIATE construct is not supported inside a kernel region".  A construct
that changes what a selector's subscripts read is refused with what to write.

h78: array selectors (`bench/h78_hunt/assoc78.f90`: ``col => a(:, j)``, ``inner => b(1:n,
j)`` written through, ``r => st%rho`` of a derived type, ``ww => w`` with its lower bound -2,
``odd => w(-1:7:2)``; before: "associate name 'col' of the array a(:, j) ... is not
supported") are the array or a view of its elements; an array expression as a selector, and
a section whose bounds the construct changes, are refused."""

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

EXPRESSION = """\
subroutine t(a, b, n)
  integer, intent(in) :: n
  real(8) :: a(n, n), b(n)
  integer :: i
  !$translate kernel
  do i = 1, n
    associate (twice => 2.0d0 * a(:, i))
      b(i) = twice(1)
    end associate
  end do
  !$translate end kernel
end subroutine
"""

MOVED_SECTION = """\
subroutine t(a, n)
  integer, intent(in) :: n
  real(8) :: a(n, n)
  integer :: i, k
  !$translate kernel
  do i = 1, n
    k = i
    associate (col => a(1:k, i))
      k = 1
      col(1) = 0.0d0
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


def test_associate_names_of_arrays(tmp_path: Path) -> None:
    src = tmp_path / "assoc78.f90"
    src.write_text((REPO / "bench" / "h78_hunt" / "assoc78.f90").read_text())
    check_sample(src, tmp_path)
    device = (tmp_path / "out" / "assoc78.cl").read_text()
    assert "get_group_id" in device.split("__kernel")[1]   # the j loop of cols in parallel


def _error(tmp_path: Path, text: str) -> str:
    src = tmp_path / "as.f90"
    src.write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_array_expressions_and_moved_subscripts_are_refused(tmp_path: Path) -> None:
    err = _error(tmp_path, MOVED)
    assert ("as.f90:8:16: error: the ASSOCIATE construct assigns 'k', which the subscripts of "
            "'x' => a(k) read (they are evaluated once, on entry); write the element inside "
            "the construct instead") in err
    err = _error(tmp_path, EXPRESSION)
    assert ("as.f90:7:16: error: associate name 'twice' of the array expression 2.0D0 * a(:, i) "
            "inside a kernel region is not supported (variables, array sections and scalar "
            "expressions are); assign it to an array before the region, or associate the "
            "arrays it reads") in err
    err = _error(tmp_path, MOVED_SECTION)
    assert ("as.f90:8:16: error: the ASSOCIATE construct assigns 'k', which the section "
            "a(1 : k, i) of 'col' reads (it is fixed on entry); write the section inside the "
            "construct instead") in err
