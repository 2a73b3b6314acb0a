"""Shared helpers of the build tests: running the CLI and the wrappers, sample sources."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROJECT = Path(__file__).resolve().parent / "project"
BIN = Path(sys.executable).parent

SAXPY = """\
subroutine saxpy(n, a, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a, x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$translate kernel saxpy_k
  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     y(i) = a*x(i) + y(i)
  end do
  !$translate end kernel
end subroutine
"""

#: A C region without pragmas that the automatic mapper parallelises.
AUTO_C = """\
void scale(int n, double s, const double *restrict x, double *restrict y)
{
#pragma translate kernel scale_k
  for (int i = 0; i < n; i++)
    y[i] = s * x[i];
#pragma translate end kernel
}
"""

#: A reduction: the automatic mapper keeps it sequential, with a warning.
SUM_C = """\
double total(int n, const double *x)
{
  double t = 0.0;
#pragma translate kernel sum_k
  for (int i = 0; i < n; i++)
    t += x[i];
#pragma translate end kernel
  return t;
}
"""


def env(**extra: str) -> dict[str, str]:
    """The environment with the venv's scripts first on PATH and the CPU device."""
    out = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
    out.setdefault("TRANSLATE_DEVICE", "cpu")
    out.update(extra)
    return out


def translate(*args: str, cwd: Path, timeout: int = 300, **extra: str
              ) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", *args], cwd=cwd,
                          capture_output=True, text=True, env=env(**extra), timeout=timeout)


def run(cmd: list[str], cwd: Path, timeout: int = 300, **extra: str
        ) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=env(**extra),
                          timeout=timeout)


def must(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def copy_project(dest: Path) -> Path:
    """The mixed Fortran/C test project (two files with regions, two without)."""
    shutil.copytree(PROJECT, dest, dirs_exist_ok=True)
    return dest


#: What the project prints, with the reference build (no translation).
def reference_output(folder: Path) -> str:
    work = folder / "_ref"
    work.mkdir(exist_ok=True)
    for cmd in (["gfortran", "-c", "../ops.f90"], ["gcc", "-std=c99", "-I..", "-c",
                                                   "../caxpy.c", "../util.c"],
                ["gfortran", "../main.f90", "ops.o", "caxpy.o", "util.o", "-o", "prog"]):
        must(run(cmd, work))
    return must(run(["./prog"], work))
