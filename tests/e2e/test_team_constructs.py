"""OpenMP ``teams``, ``target teams`` and ``target parallel`` constructs around loop
directives (h63 differential hunt): ``#pragma omp target teams`` over ``#pragma omp distribute
parallel for`` (or a block of such loops; Fortran up to ``!$omp end target teams``).  The loop
became a region and the enclosing directive stayed in front of the region's call, so a build
of the output with -fopenmp, which the docs allow, ran the call once per team: ``a[i] += 1``
added 4 with ``num_teams(4)`` (exit 0, other numbers).  Now such a construct is one region
with its loops, as ``parallel`` is; one holding other code is left as written with them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, runtime_dir, runtime_object

C_PROGRAM = """\
#include <stdio.h>
#define N 1000
static double a[N], b[N];
int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = i; b[i] = 0; }
#pragma omp target teams num_teams(4) map(tofrom: a[0:N])
#pragma omp distribute parallel for
  for (int i = 0; i < N; i++)
    a[i] += 1;
#pragma omp teams num_teams(3)
  {
#pragma omp distribute parallel for
    for (int i = 0; i < N; i++)
      a[i] += 1;
#pragma omp distribute parallel for
    for (int i = 0; i < N; i++)
      b[i] += a[i];
  }
#pragma omp target parallel num_threads(3) map(tofrom: b[0:N])
#pragma omp for
  for (int i = 0; i < N; i++)
    b[i] += 1;
  double s = 0;
  for (int i = 0; i < N; i++) s += a[i] + b[i];
  printf("%.17g\\n", s);
  return 0;
}
"""

FORTRAN_PROGRAM = """\
program teams
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n)
  integer :: i
  do i = 1, n
     a(i) = i
  end do
  !$omp target teams num_teams(4) map(tofrom: a)
  !$omp distribute parallel do
  do i = 1, n
     a(i) = a(i) + 1
  end do
  !$omp end target teams
  !$omp teams num_teams(3)
  !$omp distribute parallel do
  do i = 1, n
     a(i) = a(i) + 1
  end do
  !$omp end distribute parallel do
  !$omp end teams
  print '(f12.1)', sum(a)
end program
"""


def _run(cmd: list[str], cwd: Path, env: dict | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("name, source, compiler", [
    ("teams.c", C_PROGRAM, ["gcc", "-std=c99"]),
    ("teams.f90", FORTRAN_PROGRAM, ["gfortran"]),
])
def test_team_constructs_become_one_region_with_their_loops(tmp_path: Path, name, source,
                                                            compiler):
    src = tmp_path / name
    src.write_text(source)
    _run([*compiler, "-O1", str(src), "-o", "original"], tmp_path)
    expected = _run([str(tmp_path / "original")], tmp_path)
    out = tmp_path / "out"
    _run([sys.executable, "-m", "translator.cli", "--directives", "openmp", str(src), "-o",
          str(out)], REPO)
    rt = runtime_dir()
    _run(["gcc", "-c", "-O1", f"-I{rt}", str(out / f"{src.stem}.host.c")], tmp_path)
    _run([*compiler, "-O1", "-fopenmp", str(out / name), f"{src.stem}.host.o",
          str(runtime_object()), "-lOpenCL", "-lm", "-o", "translated"], tmp_path)
    actual = _run([str(tmp_path / "translated")], tmp_path,
                  {"TRANSLATE_DEVICE": "cpu", "OMP_NUM_THREADS": "2"})
    assert actual == expected
    rewritten = (out / name).read_text().lower()
    assert "omp target" not in rewritten and "omp teams" not in rewritten
