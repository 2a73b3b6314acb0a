"""Orphaned OpenMP worksharing loops (h63 differential hunt): ``#pragma omp for`` (Fortran
``!$omp do``) in a function that a ``parallel`` construct elsewhere calls.  The loop became a
region whose call replaced it, so a build of the output with -fopenmp, which the docs allow,
made the call in every thread of the team: the iterations, shared among the threads in the
original, ran once per thread, racing on the host arrays (``s += ...`` counted three times).
Now the call is made by one thread (``single``; ``single nowait`` for a ``nowait`` loop), and
the build without -fopenmp is unchanged."""

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
static double total;
static void work(void)
{
#pragma omp for
  for (int i = 0; i < N; i++)
    a[i] += 1;
#pragma omp for nowait
  for (int i = 0; i < N; i++)
    b[i] = 2 * i;
#pragma omp barrier
#pragma omp for reduction(+:total)
  for (int i = 0; i < N; i++)
    total += a[i] + b[i];
}
int main(void)
{
  for (int i = 0; i < N; i++) a[i] = i;
  total = 0;
#pragma omp parallel
  {
    work();
  }
  printf("%.17g %.17g\\n", total, a[N - 1]);
  return 0;
}
"""

FORTRAN_PROGRAM = """\
module m
  implicit none
  integer, parameter :: n = 1000
  real(8) :: a(n), total
contains
  subroutine work()
    integer :: i
    !$omp do
    do i = 1, n
       a(i) = a(i) + 1
    end do
    !$omp end do
    !$omp do reduction(+:total)
    do i = 1, n
       total = total + a(i)
    end do
  end subroutine
end module

program orphan
  use m
  implicit none
  integer :: i
  do i = 1, n
     a(i) = i
  end do
  total = 0
  !$omp parallel
  call work()
  !$omp end parallel
  print '(2f14.1)', total, a(n)
end program
"""


def _run(cmd: list[str], cwd: Path, env: dict | None = None) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})})
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("name, source, compiler", [
    ("orphan.c", C_PROGRAM, ["gcc", "-std=c99"]),
    ("orphan.f90", FORTRAN_PROGRAM, ["gfortran"]),
])
def test_orphaned_worksharing_loop_runs_once_in_an_openmp_build(tmp_path: Path, name, source,
                                                                compiler):
    src = tmp_path / name
    src.write_text(source)
    _run([*compiler, "-O1", "-fopenmp", str(src), "-o", "original"], tmp_path)
    expected = _run([str(tmp_path / "original")], tmp_path, {"OMP_NUM_THREADS": "3"})
    out = tmp_path / "out"
    _run([sys.executable, "-m", "translator.cli", "--directives", "openmp", str(src), "-o",
          str(out)], REPO)
    rt = runtime_dir()
    _run(["gcc", "-c", "-O1", f"-I{rt}", str(out / f"{src.stem}.host.c")], tmp_path)
    objects = [f"{src.stem}.host.o", str(runtime_object()), "-lOpenCL", "-lm"]
    for flags, exe in ((["-fopenmp"], "with_openmp"), ([], "without")):
        _run([*compiler, "-O1", *flags, str(out / name), *objects, "-o", exe], tmp_path)
        actual = _run([str(tmp_path / exe)], tmp_path,
                      {"TRANSLATE_DEVICE": "cpu", "OMP_NUM_THREADS": "3"})
        assert actual == expected, exe
    assert "omp single" in (out / name).read_text()
