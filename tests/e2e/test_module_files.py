"""A region using arrays of a module that another file defines, as real programs are laid out:
translated, built and run on the CPU OpenCL device against the original."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, run, runtime_dir, runtime_object

MODULE = """\
module fields
  implicit none
  integer, parameter :: wp = kind(1.0d0)
  integer, parameter :: nmax = 300
  real(wp) :: p(nmax), q(0:nmax)
  real(wp) :: scale = 1.5_wp
end module fields
"""

MAIN = """\
subroutine smooth(n)
  use fields
  implicit none
  integer, intent(in) :: n
  integer :: i
  !$translate kernel smooth_k
  !$translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     q(i) = scale * (p(i) + 0.5_wp * p(max(i - 1, 1)))
  end do
  !$translate end kernel
end subroutine smooth

program main
  use fields, only: p, q, nmax
  implicit none
  integer :: i
  do i = 1, nmax
     p(i) = sin(0.01d0 * i)
  end do
  q = 0
  call smooth(nmax - 1)
  print '(3es24.16)', sum(q), q(1), q(nmax - 1)
end program main
"""


def _translate(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def _build_and_compare(tmp: Path, out: Path) -> None:
    rt = runtime_dir()
    run(["gfortran", "-O1", "fields.f90", "main.f90", "-o", "original"], tmp)
    run(["gfortran", "-c", "-O1", "fields.f90"], tmp)
    run(["gcc", "-c", "-O1", f"-I{rt}", str(out / "main.host.c")],
        tmp)
    run(["gfortran", "-O1", "fields.o", str(out / "main.f90"), "main.host.o", str(runtime_object()),
         "-lOpenCL", "-o", "translated"], tmp)
    expected = run(["./original"], tmp)
    actual = run(["./translated"], tmp, env={"TRANSLATE_DEVICE": "cpu"})
    assert actual == expected
    assert "p" in (out / "main.cl").read_text()


@pytest.mark.parametrize("how", ["together", "include-dir", "same-dir"])
def test_module_arrays_from_another_file(tmp_path: Path, how: str):
    src = tmp_path / "src"
    mods = tmp_path / "mods" if how == "include-dir" else src
    src.mkdir()
    mods.mkdir(exist_ok=True)
    (mods / "fields.f90").write_text(MODULE)
    (src / "main.f90").write_text(MAIN)
    out = tmp_path / "out"
    if how == "together":
        args = [str(mods / "fields.f90"), str(src / "main.f90"), "-o", str(out)]
    elif how == "include-dir":
        args = [str(src / "main.f90"), "-I", str(mods), "-o", str(out)]
    else:
        args = [str(src / "main.f90"), "-o", str(out)]
    proc = _translate(*args, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    work = tmp_path / "build"
    work.mkdir()
    (work / "fields.f90").write_text(MODULE)
    (work / "main.f90").write_text(MAIN)
    _build_and_compare(work, out)


def test_missing_module_is_a_located_error(tmp_path: Path):
    (tmp_path / "main.f90").write_text(MAIN)
    proc = _translate(str(tmp_path / "main.f90"), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    assert re.fullmatch(
        r".*main\.f90:9:6: error: 'q' is not declared here; it may come from module 'fields',"
        r" whose source was not found: name the file that defines it in the same translate "
        r"command, or its directory with -I DIR \(searched: the directory of main\.f90\)", first)
    assert re.search(r"main\.f90:2:7: note: module 'fields' is used here", proc.stderr)
    assert not (tmp_path / "out").exists()


def test_unused_missing_module_is_harmless(tmp_path: Path):
    text = MAIN.replace("  use fields\n", "  use fields\n  use mpi_stub_not_here\n", 1)
    (tmp_path / "main.f90").write_text(text)
    (tmp_path / "fields.f90").write_text(MODULE)
    proc = _translate(str(tmp_path / "main.f90"), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_dependency_file_lists_the_module_source(tmp_path: Path):
    (tmp_path / "fields.f90").write_text(MODULE)
    (tmp_path / "main.f90").write_text(MAIN)
    proc = _translate(str(tmp_path / "main.f90"), "-o", str(tmp_path / "out"), "-MD",
                      cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    deps = (tmp_path / "out" / "main.d").read_text()
    assert f" {tmp_path / 'main.f90'} \\\n {tmp_path / 'fields.f90'} \\\n" in deps


def test_module_using_itself_is_a_located_error(tmp_path: Path):
    """Found by the CLI fuzzer: a module that uses itself recursed without end (exit 2)."""
    text = MODULE.replace("  implicit none\n", "  use fields\n  implicit none\n", 1)
    (tmp_path / "main.f90").write_text(text + MAIN)
    proc = _translate(str(tmp_path / "main.f90"), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.splitlines()[0].endswith(
        "main.f90:2:7: error: module 'fields' cannot use itself")
    assert not (tmp_path / "out").exists()


def test_modules_using_each_other_do_not_recurse(tmp_path: Path):
    """Two modules using each other (no compiler accepts it; the translator must not loop):
    a name neither declares is reported, not a recursion."""
    cyc = ("module ma\n  use mb\n  real :: x(10)\nend module ma\n"
           "module mb\n  use ma\n  real :: y(10)\nend module mb\n")
    (tmp_path / "main.f90").write_text(cyc + MAIN.replace("use fields", "use ma"))
    proc = _translate(str(tmp_path / "main.f90"), "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
