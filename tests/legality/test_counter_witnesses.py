"""Witnesses of a loop that counts down (or by steps) give the source variable's values: its
iname is a 0-based trip counter named after the variable, and the messages used to print the
counter (``for (int i = n - 1; i >= 1; i--)`` with n = 3 runs i = 2, 1, but the refusal said
"iteration i=1 writes a[1], iteration i=0 reads a[1]")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO

C_DOWN = """\
static void f(int n, double *a)
{
#pragma translate kernel f
#pragma translate tag_inames("i:g.0")
    for (int i = n - 1; i >= 1; i--)
        a[i] = a[i - 1] + 1.0;
#pragma translate end kernel
}
"""

C_STEP = """\
static void f(int n, double *a)
{
#pragma translate kernel f
#pragma translate tag_inames("i:g.0")
    for (int i = 5; i < n; i += 3)
        a[i] = a[i - 3] + 1.0;
#pragma translate end kernel
}
"""

FORTRAN_DOWN = """\
subroutine f(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel f
  !$translate tag_inames("i:g.0")
  do i = n, 2, -1
     a(i) = a(i - 1) + 1d0
  end do
  !$translate end kernel
end subroutine
"""


def _refusal(tmp_path: Path, name: str, text: str) -> tuple[Path, str]:
    src = tmp_path / name
    src.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    return src, proc.stderr


@pytest.mark.parametrize("name,text,where,witness", [
    ("down.c", C_DOWN, "6:9", "iteration i=1 writes a[1], iteration i=2 reads a[1]"),
    ("step.c", C_STEP, "6:9", "iteration i=5 writes a[5], iteration i=8 reads a[5]"),
    ("down.f90", FORTRAN_DOWN, "8:6", "iteration i=2 writes a[1], iteration i=3 reads a[1]"),
])
def test_witness_gives_the_loop_variable(tmp_path: Path, name: str, text: str, where: str,
                                         witness: str) -> None:
    src, err = _refusal(tmp_path, name, text)
    assert f"{src}:{where}: error: mapping i to g.0 races: {witness} ({src}:" in err, err
