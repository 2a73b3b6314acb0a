"""Fortran array assignments whose right-hand side reads other elements of the target array.

Sections isl proves disjoint from the written one (or the written elements themselves) are
ordinary element-wise assignments; a real partial overlap keeps the clean refusal.  Each
accepted program is built as written and as translated, run on the CPU OpenCL device, and the
outputs must agree."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.driver import translate_text

#: The issue's shape: another plane of the same array, inside a loop over k.
PLANES = """\
program planes
  implicit none
  integer, parameter :: n = 7
  real(8) :: s(-1:2, n, 2)
  integer :: k, i
  do k = 1, n
     do i = -1, 2
        s(i, k, 1) = i + 10 * k
        s(i, k, 2) = -1
     end do
  end do
  !$translate kernel planes
  do k = 1, n
     s(-1:0, k, 2) = s(-1:0, k, 1) * 50
     s(1:2, k, 1) = s(-1:0, k, 1) + s(-1:0, k, 2)
  end do
  !$translate end kernel
  print '(4(1x, es23.15e3))', s
end program planes
"""

#: Different ranges of one dimension, symbolic extents, strides, and the identical case.
RANGES = """\
subroutine halves(m, a, b)
  integer :: m
  real(8) :: a(2 * m), b(m, 3)
  !$translate kernel halves
  a(1:m) = a(m+1:2*m) * 2
  a(1:2*m-1:2) = a(2:2*m:2) + 1
  a(1:m) = a(1:m) * 2
  b(:, 3) = b(:, 1) + b(:, 2)
  !$translate end kernel
end subroutine halves

program ranges
  implicit none
  integer, parameter :: m = 9
  real(8) :: a(2 * m), b(m, 3)
  integer :: i
  do i = 1, 2 * m
     a(i) = i * 0.25d0
  end do
  do i = 1, m
     b(i, 1) = i
     b(i, 2) = 3 * i
     b(i, 3) = 0
  end do
  call halves(m, a, b)
  print '(3(1x, es23.15e3))', a, b
end program ranges
"""

OVERLAP = """\
subroutine shift(n, a)
  integer :: n
  real(8) :: a(n)
  !$translate kernel shift
  a(2:n) = a(1:n-1)
  !$translate end kernel
end subroutine shift
"""


@pytest.mark.parametrize("name, text", [("planes.f90", PLANES), ("ranges.f90", RANGES)])
def test_disjoint_sections_match_original(name: str, text: str, tmp_path: Path) -> None:
    src = tmp_path / name
    src.write_text(text)
    work = tmp_path / "work"
    work.mkdir()
    assert check_sample(src, work).strip()


def test_disjoint_planes_run_in_parallel() -> None:
    """Accepting the statement is not enough: the loop over k is mapped to work items."""
    result = translate_text("planes.f90", PLANES)
    (mapping,) = result.mappings
    assert not mapping.sequential_reason


def test_partial_overlap_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "shift.f90"
    src.write_text(OVERLAP)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert done.returncode == 1
    assert f"{src}:5:3: error: array assignment to 'a' reads other elements of 'a'" \
        in done.stderr
    assert "Traceback" not in done.stderr
