"""An OpenMP loop directive inside a translate region is not read by it (the region's own
pragmas decide): with ``--directives=openmp`` that was silent, and a ``private(t)`` the user
wrote looked dropped (h90: LINPACK's dgefa ran on one work item).  Now a
``directive-in-region`` warning says so at the directive, in both languages; the
translation is the same as without the directive."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import TRANSLATE

FORTRAN = """\
subroutine scale(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  real(8) :: t
  integer :: i
  !$translate kernel
  !$omp parallel do private(t)
  do i = 1, n
     t = a * x(i)
     y(i) = y(i) + t
  end do
  !$translate end kernel
end subroutine
"""

C = """\
void scale(int n, double a, const double *restrict x, double *restrict y)
{
  double t;
#pragma translate kernel
#pragma omp parallel for private(t)
  for (int i = 0; i < n; i++) {
    t = a * x[i];
    y[i] = y[i] + t;
  }
#pragma translate end kernel
}
"""


@pytest.mark.parametrize("name, text, where, spelling", [
    ("inreg.f90", FORTRAN, "inreg.f90:9:3", "'!$omp parallel do'"),
    ("inreg.c", C, "inreg.c:5:13", "'#pragma omp parallel for'"),
])
def test_a_loop_directive_inside_a_region_is_said_not_read(tmp_path: Path, name: str,
                                                           text: str, where: str,
                                                           spelling: str) -> None:
    (tmp_path / name).write_text(text)
    run = [*TRANSLATE, name, "--emit", "cl", "--directives=openmp"]
    got = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert f"{where}: warning: {spelling} is inside the " in got.stderr
    assert "which does not read it" in got.stderr and "[-Wdirective-in-region]" in got.stderr
    plain = subprocess.run([*TRANSLATE, name, "--emit", "cl"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert plain.returncode == 0 and "directive-in-region" not in plain.stderr
    assert plain.stdout == got.stdout
    quiet = subprocess.run([*run, "-Wno-directive-in-region"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0 and quiet.stderr == plain.stderr
