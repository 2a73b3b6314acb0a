"""A directive loop the Fortran frontend cannot read stays as written; the rest of the file
translates (h71, after h67's `sum(f%v(:, j))` in an ``!$omp target`` loop).  Before, only the
constructs the frontend knew it refused (I/O, EXIT ...) left a directive's loop as written;
any other frontend error in one (here a CALL passing an expression to a dummy the callee may
assign, legal when the branch assigning it does not run) stopped the whole file: exit 1 and
nothing translated.  Now every frontend error inside an ``!$omp``/``!$acc`` loop is a
``directive-untranslated`` warning at the directive naming the line; in a ``!$translate``
region, which is an order, it stays an error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = (REPO / "bench" / "h71_hunt" / "dirfe1.f90").read_text()

REGION = """\
module keep
contains
  subroutine pick(x, y, store)
    real(8) :: x, y
    logical, intent(in) :: store
    if (store) y = x
  end subroutine
end module
subroutine s(a, n)
  use keep
  integer, intent(in) :: n
  real(8) :: a(n)
  integer :: i
  !$translate kernel
  do i = 1, n
    call pick(a(i), 2.0d0, .false.)
  end do
  !$translate end kernel
end subroutine
"""


def _translate(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess:
    src = tmp_path / name
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "translator.cli",
                           "--directives=openmp,openacc,translate", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)


def test_other_directive_loops_translate(tmp_path: Path) -> None:
    done = _translate(tmp_path, "dirfe1.f90", PROGRAM)
    assert done.returncode == 0, done.stderr
    assert ("dirfe1.f90:19:3: warning: '!$omp parallel do' left as written: subroutine 'pick' "
            "assigns its dummy argument 'y', but the actual argument 2.0D0 is not a variable "
            "(line 22) [-Wdirective-untranslated]") in done.stderr
    assert "dirfe1.f90:29:3: warning: '!$acc parallel loop' left as written" in done.stderr
    rewritten = (tmp_path / "out" / "dirfe1.f90").read_text()
    assert rewritten.count("call translate_") == 2
    work = tmp_path / "run"
    work.mkdir()
    src = work / "dirfe1.f90"
    src.write_text(PROGRAM)
    check_sample(src, work)


def test_a_translate_region_stays_an_error(tmp_path: Path) -> None:
    done = _translate(tmp_path, "order.f90", REGION)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert ("order.f90:16:10: error: subroutine 'pick' assigns its dummy argument 'y', but the "
            "actual argument 2.0D0 is not a variable") in done.stderr
