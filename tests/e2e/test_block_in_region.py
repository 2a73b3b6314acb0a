"""A BLOCK construct inside a region (h71, after h67's `block1.f90`): its local scalars are
private temporaries of the kernel, seen under their names by the construct's statements (a
local hides the procedure's variable of that name; a named constant is its value).  Before,
"BLOCK construct is not supported inside a kernel region" (a `!$translate` region an error, an
OpenMP loop left as written).  SAVEd locals are refused at their declaration with what to write
instead.

h78: local arrays with constant bounds are private array temporaries (`bench/h78_hunt/
block78.f90`: ``st(-1:1)``, ``g(3)``, ``m(2, 2)`` assigned whole and by element, `sum` and
`maxval` of them, a named constant array; before: "local variable 'st' of a BLOCK construct
... is an array"); one whose bounds are not constant, or too large, is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = (REPO / "bench" / "h71_hunt" / "block4.f90").read_text()

LOCALS = """\
subroutine s(a, n)
  integer, intent(in) :: n
  real(8) :: a(n)
  integer :: i
  !$translate kernel
  do i = 1, n
    block
      real(8) :: {decl}
      {use}
      a(i) = a(i) + acc
    end block
  end do
  !$translate end kernel
end subroutine
"""


def test_block_locals_are_private_temporaries(tmp_path: Path) -> None:
    src = tmp_path / "block4.f90"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / "block4.f90").read_text()
    assert rewritten.count("call translate_") == 2   # the !$translate region and the !$omp loop


def test_block_local_arrays_are_private_arrays(tmp_path: Path) -> None:
    src = tmp_path / "block78.f90"
    src.write_text((REPO / "bench" / "h78_hunt" / "block78.f90").read_text())
    check_sample(src, tmp_path)
    device = (tmp_path / "out" / "block78.cl").read_text()
    assert "double _tr_block_m[4];" in device and "get_group_id" in device


def _error(tmp_path: Path, decl: str, use: str) -> str:
    src = tmp_path / "blk.f90"
    src.write_text(LOCALS.format(decl=decl, use=use))
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_block_local_arrays_and_saved_locals_are_refused_at_them(tmp_path: Path) -> None:
    err = _error(tmp_path, "w(n), acc", "w = a(i); acc = sum(w)")
    assert ("blk.f90:8:18: error: local variable 'w' of a BLOCK construct inside a kernel "
            "region is an array whose bounds are not constant: each work item holds its own "
            "copy, so give it constant bounds (named constants), or declare it in the "
            "procedure") in err
    err = _error(tmp_path, "w(2000), acc", "w = a(i); acc = sum(w)")
    assert ("blk.f90:8:18: error: local variable 'w' of a BLOCK construct inside a kernel "
            "region is an array of 2000 elements: each work item holds its own copy, at most "
            "1024 elements; declare it in the procedure") in err
    err = _error(tmp_path, "acc = 0.0d0", "acc = acc + a(i)")
    assert ("blk.f90:8:18: error: local variable 'acc' of a BLOCK construct inside a kernel "
            "region is SAVEd (SAVE, or an initializer in its declaration): work items cannot "
            "share it; assign it in the BLOCK instead") in err
