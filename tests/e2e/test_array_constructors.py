"""End to end: array constructors in regions (h85) and regions inside or made of BLOCK
constructs.  ``c = [0.25, 0.5, 0.25]``, ``w = (/ x(i-1), x(i), x(i+1) /)`` into a private
BLOCK array, ``sum([a(i), b(i), 1.0])``, ``product([real(dp) :: 2, i, a(i)])``,
``maxval``/``minval``/``any`` of constructors: the element at the section's position
(``if(t == 0, a, if(t == 1, b, c))``), a reduction over the constructor's positions.  Before:
"array constructor ([0.25_dp, 0.5_dp, 0.25_dp]) is not supported in a kernel region", and a
region inside a BLOCK using its variables was "'scale' is a local variable of the BLOCK
construct ... which the region cannot use".  Constructors whose length the assigned section
does not provably have, implied DOs with bounds that are not constants (outside a reduction
over one of them) or nested, and array values stay refused with what to write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

HUNT = REPO / "bench" / "h85_hunt"


@pytest.mark.parametrize("name", ["arrcons1.f90", "block1.f90"])
def test_constructors_and_blocks_match_the_original(name: str, tmp_path: Path) -> None:
    check_sample(HUNT / name, tmp_path)
    rewritten = (tmp_path / "out" / name).read_text()
    assert "!$omp target" not in rewritten.split("end module")[0]   # every loop translated


REFUSED = """\
subroutine r(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: c(4)
  integer :: i
  !$translate kernel r1
  do i = 1, n
    {stmt}
  end do
  !$translate end kernel
end subroutine r
"""


@pytest.mark.parametrize("stmt, col, message", [
    ("c = [x(i), 1.0d0, 2.0d0]", 5,
     "array constructor ([x(i), 1.0D0, 2.0D0]) of 3 elements assigned to 4 elements: the "
     "counts must be equal constants"),
    ("y(1:n) = [x(i), 1.0d0]", 5,
     "array constructor ([x(i), 1.0D0]) of 2 elements assigned to n elements: the counts "
     "must be equal constants"),
    ("c = [(x(i) * k, k = 1, n)]", 5,
     "the bounds of the implied DO in the array constructor ([(x(i) * k, k = 1, n)]) must be "
     "an integer constant (got n); write its values out, or assign the elements in a DO loop "
     "(a reduction over one implied DO of one value takes any bounds)"),
    ("c = [((x(k), k = 1, 2), i = 1, 2)]", 5,
     "nested implied DO in the array constructor ([((x(k), k = 1, 2), i = 1, 2)]) in a kernel "
     "region: write its values out, or assign the elements in DO loops"),
    ("y(i) = [x(i), 1.0d0] * 2", 5,
     "array constructor ([x(i), 1.0D0]) in a kernel region: only in a one-dimensional array "
     "assignment"),
])
def test_constructors_that_cannot_be_proved_are_refused(stmt: str, col: int, message: str,
                                                        tmp_path: Path) -> None:
    (tmp_path / "r.f90").write_text(REFUSED.replace("{stmt}", stmt))
    done = subprocess.run([sys.executable, "-m", "translator.cli", "r.f90", "-o", "out"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"r.f90:9:{col}: error: {message}"), done.stderr
