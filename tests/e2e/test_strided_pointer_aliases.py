"""POINTER arrays in regions (h67 differential hunt over modern Fortran).  A POINTER array
without CONTIGUOUS may be a strided view (``row => buf(3, :)``): the call into the glue passes
a packed copy of it, which gfortran copies back after the call.  Before, a region reading
``row`` and writing ``col => buf(:, 2)`` (the two share ``buf(3, 2)``) saw two separate
ranges, the run-time overlap check passed, and the copy-back of ``row`` undid the write to
``col(3)``: exit 0 and 23 for 24.  Now a region that uses such a view together with another
POINTER or TARGET array, writing one of them, is refused at the view's first use (a directive
loop is left as written); a view alone, and CONTIGUOUS pointers, are still translated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

TWO_VIEWS = """\
program ptr2
  implicit none
  integer, parameter :: n = 8, m = 6
  real(8), target :: buf(n, m)
  real(8), pointer :: row(:), col(:)
  real(8) :: out(m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      buf(i, j) = dble(i + 10 * j)
    end do
  end do
  row => buf(3, :)
  col => buf(:, 2)
  !$translate kernel pr
  do j = 1, m
    out(j) = row(j) * 2.0d0
  end do
  do i = 1, n
    col(i) = col(i) + 1.0d0
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') out, buf
end program ptr2
"""

VIEWS_KEPT = """\
! translate-test: translate=--directives=openmp,translate
program views
  implicit none
  integer, parameter :: n = 8, m = 6
  real(8), target :: buf(n, m)
  real(8), pointer :: row(:)
  real(8), pointer, contiguous :: c1(:), c2(:)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      buf(i, j) = dble(i + 10 * j)
    end do
  end do
  row => buf(3, :)
  !$omp parallel do
  do j = 1, m
    buf(3, j) = row(j) * 2.0d0 + buf(4, j)
  end do
  !$translate kernel alone
  do j = 1, m
    row(j) = row(j) + 0.5d0
  end do
  !$translate end kernel
  c1 => buf(:, 2)
  c2 => buf(:, 4)
  !$translate kernel twoc
  do i = 1, n
    c2(i) = c1(i) * 3.0d0
  end do
  !$translate end kernel
  write(*, '(4ES24.16)') buf
end program views
"""

TARGET_DUMMY = """\
module fld
  implicit none
  real(8), pointer :: p(:) => null()
contains
  subroutine upd(n, x)
    integer, intent(in) :: n
    real(8), target, intent(inout) :: x(:)
    integer :: i
    !$translate kernel up
    do i = 1, n
      x(i) = x(i) + p(i)
    end do
    !$translate end kernel
  end subroutine
end module fld
"""


def _translate(src: Path, out: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", str(out),
                           *flags], capture_output=True, text=True, timeout=300, check=False,
                          cwd=REPO)


def test_a_strided_pointer_sharing_storage_with_a_written_one_is_refused(
        tmp_path: Path) -> None:
    src = tmp_path / "ptr2.f90"
    src.write_text(TWO_VIEWS)
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 1, done.stderr
    assert ("ptr2.f90:20:5: error: 'col' is a POINTER array that may be a strided view and "
            "share storage with 'row' (POINTER array), and the region writes 'col': the call "
            "would pass a packed copy of 'col', separate from 'row'; declare 'col' CONTIGUOUS "
            "(or use the arrays it points to in the region)") in done.stderr


def test_a_pointer_into_a_target_dummy_is_refused_at_the_pointer(tmp_path: Path) -> None:
    src = tmp_path / "fld.f90"
    src.write_text(TARGET_DUMMY)
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 1, done.stderr
    assert ("fld.f90:11:21: error: 'p' is a POINTER array that may be a strided view and share "
            "storage with 'x' (TARGET array), and the region writes 'x'") in done.stderr


def test_a_view_alone_and_contiguous_pointers_are_translated_and_match(tmp_path: Path) -> None:
    src = tmp_path / "views.f90"
    src.write_text(VIEWS_KEPT)
    check_sample(src, tmp_path)
    done = _translate(src, tmp_path / "o2", "--directives=openmp,translate")
    assert done.returncode == 0, done.stderr
    assert ("views.f90:15:3: warning: '!$omp parallel do' left as written: 'row' is a POINTER "
            "array that may be a strided view and share storage with 'buf' (TARGET array), and "
            "the region writes 'buf'") in done.stderr
    assert "translate_alone" in (tmp_path / "o2" / "views.f90").read_text()


def test_pointer_components_are_named_as_written(tmp_path: Path) -> None:
    src = tmp_path / "ptrcomp.f90"
    src.write_text((REPO / "bench" / "h67_hunt" / "ptrcomp.f90").read_text())
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 1, done.stderr
    assert ("ptrcomp.f90:23:5: error: 'v%c' is a POINTER array that may be a strided view and "
            "share storage with 'buf' (TARGET array), and the region writes 'v%c': the call "
            "would pass a packed copy of 'v%c', separate from 'buf'; declare 'v%c' CONTIGUOUS"
            ) in done.stderr
