"""FORALL in a region (h71, after h67's `forall1.f90`): each assignment is a parallel
assignment over the index space (masks, strides, negative steps, constructs of several
assignments run one after the other, a FORALL inside a DO loop), and the procedure's
variables named like the indices keep their values.  Before, "FORALL statement is not
supported inside a kernel region".  A FORALL whose instances read what other instances write
(``a(i) = a(i - 1)``) must see the old values: refused with what to write, never run
element by element; so is a construct's mask reading what the construct assigns."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

SHIFT = """\
subroutine s(a, n)
  integer, intent(in) :: n
  real(8) :: a(n)
  integer :: i
  !$translate kernel
  forall (i = 2:n) a(i) = a(i - 1)
  !$translate end kernel
end subroutine
"""

MASKED = """\
subroutine t(a, b, n)
  integer, intent(in) :: n
  real(8) :: a(n), b(n)
  integer :: i
  !$translate kernel
  forall (i = 1:n, a(i) > 0)
    a(i) = -a(i)
    b(i) = a(i)
  end forall
  !$translate end kernel
end subroutine
"""


def test_forall_is_a_parallel_assignment(tmp_path: Path) -> None:
    src = tmp_path / "forall2.f90"
    src.write_text((REPO / "bench" / "h71_hunt" / "forall2.f90").read_text())
    check_sample(src, tmp_path)


def _error(tmp_path: Path, text: str) -> str:
    src = tmp_path / "fa.f90"
    src.write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_reading_what_other_indices_assign_is_refused(tmp_path: Path) -> None:
    err = _error(tmp_path, SHIFT)
    assert ("fa.f90:6:20: error: FORALL assignment to 'a' reads elements of 'a' that other "
            "index values assign; FORALL evaluates every right-hand side before it assigns; "
            "copy what it reads into a temporary array first (or write a DO loop if its order "
            "is what you mean)") in err
    err = _error(tmp_path, MASKED)
    assert ("fa.f90:6:20: error: FORALL mask reads 'a', which the FORALL assigns; compute the "
            "mask into a logical array before it") in err
