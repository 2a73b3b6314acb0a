"""End to end: OpenACC's manual deep copy of a derived type (h85): ``!$acc enter data
copyin(s)`` then ``copyin(s%u, s%f)``, ``present(s%u, s%f)`` and ``default(present)`` on the
loops, ``update self(s%u)`` in the time loop, ``exit data copyout(s%u) delete(s%f)`` and
``delete(s)``.  A structure in a data clause has nothing to move (each region passes the
components it uses; scalar components go by value), so it is dropped; the components stay
resident across every region call.  Before: "'s' in a data clause is not an array", the
file refused.  ``update self(s)`` (which would mean a deep copy) is an error naming what to
write."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

UPDATE = """\
program upd
  implicit none
  type st_t
    real(8), allocatable :: u(:)
  end type
  type(st_t) :: s
  allocate(s%u(4))
  s%u = 1
  !$acc enter data copyin(s, s%u)
  !$acc update self(s)
  !$acc exit data delete(s%u, s)
  print *, s%u
end program upd
"""


def test_manual_deep_copy_keeps_the_components_resident(tmp_path: Path) -> None:
    check_sample(REPO / "bench" / "h85_hunt" / "mesh2.f90", tmp_path)
    done = subprocess.run([str(tmp_path / "translated")], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1"})
    rows = {line.split()[0]: line.split() for line in done.stderr.splitlines()
            if line.startswith(("rhs_0", "advance_0"))}
    # 10 calls each, nothing moved: s%u and s%f are present from the enter data on
    assert rows["rhs_0"][2:] == ["10", rows["rhs_0"][3], "0", "0"], done.stderr
    assert rows["advance_0"][2:] == ["10", rows["advance_0"][3], "0", "0"], done.stderr


def test_update_of_a_structure_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "upd.f90").write_text(UPDATE)
    done = subprocess.run([sys.executable, "-m", "translator.cli", "upd.f90", "-o", "out",
                           "--directives=openacc"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(
        "upd.f90:10:3: error: 's' in an update clause is a structure: the translator keeps its "
        "array components on the device one by one, so name the ones to update ('s%u' for a "
        "component u)"), done.stderr
