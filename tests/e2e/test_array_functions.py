"""Array-valued functions in a region (h78, after h71's `avf71.f90`, which was refused with
"function 'twice' returns an array: array-valued functions are not supported in a kernel
region").  Where such a call is the whole right-hand side of an array assignment
(``b(:, j) = twice(a(:, j))``), the function is inlined with its result a view of the
left-hand side: a result declared with bounds the translator cannot read (``w(size(v))``),
one of constant size, an ALLOCATABLE one, next to an ELEMENTAL function
(`bench/h78_hunt/avf78.f90`).  A call inside an expression, and one whose arguments read the
array it is assigned to, are refused with what to write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

ALIASED = """\
module m
contains
  function twice(v) result(w)
    real(8), intent(in) :: v(:)
    real(8) :: w(size(v))
    w = 2.0d0 * v
  end function
  subroutine t(n, a)
    integer, intent(in) :: n
    real(8) :: a(n, n)
    integer :: j
    !$translate kernel
    do j = 1, n
      a(:, j) = twice(a(:, j))
    end do
    !$translate end kernel
  end subroutine
end module
"""


@pytest.mark.parametrize("path", ["h71_hunt/avf71.f90", "h78_hunt/avf78.f90"])
def test_array_valued_functions_assigned_whole(tmp_path: Path, path: str) -> None:
    src = tmp_path / Path(path).name
    src.write_text((REPO / "bench" / path).read_text())
    check_sample(src, tmp_path)
    assert "get_group_id" in (tmp_path / "out" / src.with_suffix(".cl").name).read_text()


def test_a_result_assigned_to_what_the_call_reads_is_refused(tmp_path: Path) -> None:
    src = tmp_path / "alias.f90"
    src.write_text(ALIASED)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert ("alias.f90:14:17: error: array-valued function 'twice' may read 'a', which the "
            "assignment of its result writes (the result is written into 'a' while 'twice' "
            "runs); assign the result to another array first") in done.stderr
