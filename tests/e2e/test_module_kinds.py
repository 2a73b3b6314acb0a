"""Kinds and named constants of modules in declarations (issue 21 item 4): a module of kinds in
another file (``dp = selected_real_kind(15)``, ``kind(1.0d0)``, ``real64``), a module of state
that uses it, and library modules whose source is not in reach (``use mpi``) in code the
translator does not translate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, past_stamp, run, runtime_dir, runtime_object

PREC = """\
module prec
  use, intrinsic :: iso_fortran_env, only: real64, int64
  implicit none
  integer, parameter :: dp = selected_real_kind(15)
  integer, parameter :: wp = kind(1.0d0)
  integer, parameter :: rk = real64
  integer, parameter :: ik = selected_int_kind(9)
  integer, parameter :: nmax = 200
end module prec
"""

STATE = """\
module state
  use prec, only: dp, ik, nmax
  implicit none
  real(dp) :: u(nmax), f(nmax)
  integer(ik) :: steps = 3_ik
end module state
"""

MAIN = """\
subroutine advance(n, dt, w)
  use prec
  use state
  implicit none
  integer(ik), intent(in) :: n
  real(wp), intent(in) :: dt
  real(rk), intent(inout) :: w(n)
  integer(ik) :: i
  !$translate kernel advance_k
  do i = 1, n
     u(i) = u(i) + dt * f(i) + 0.5_dp * w(i)
     w(i) = w(i) * real(steps, dp)
  end do
  !$translate end kernel
end subroutine advance

program main
  use prec
  use state
  implicit none
  real(dp) :: w(nmax)
  integer :: i
  do i = 1, nmax
     u(i) = sin(0.1_dp * i)
     f(i) = cos(0.07_dp * i)
     w(i) = 1.0_dp / i
  end do
  call advance(int(nmax, ik), 0.25_wp, w)
  print '(3es24.16)', sum(u), sum(w), u(nmax)
end program main
"""


def _translate(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def _write(where: Path, **files: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (where / f"{name}.f90").write_text(text)


@pytest.mark.parametrize("how", ["together", "include-dir"])
def test_kinds_of_a_module_file_in_declarations(tmp_path: Path, how: str):
    """Before: 'undeclared name 'dp'' although the module source was given."""
    mods, src, out = tmp_path / "mods", tmp_path / "src", tmp_path / "out"
    _write(mods, prec=PREC, state=STATE)
    _write(src, main=MAIN)
    if how == "together":
        args = [str(mods / "prec.f90"), str(mods / "state.f90"), str(src / "main.f90")]
    else:
        args = [str(src / "main.f90"), "-I", str(mods)]
    proc = _translate(*args, "-o", str(out), cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    kernels = (out / "main.cl").read_text()
    assert "double" in kernels and "float" not in kernels   # real(dp), real(wp), real(rk)
    work = tmp_path / "build"
    _write(work, prec=PREC, state=STATE, main=MAIN)
    rt = runtime_dir()
    run(["gfortran", "-O1", "prec.f90", "state.f90", "main.f90", "-o", "original"], work)
    run(["gfortran", "-c", "-O1", "prec.f90", "state.f90"], work)
    run(["gcc", "-c", "-O1", f"-I{rt}", str(out / "main.host.c")],
        work)
    run(["gfortran", "-O1", "prec.o", "state.o", str(out / "main.f90"), "main.host.o",
         str(runtime_object()), "-lOpenCL", "-o", "translated"], work)
    expected = run(["./original"], work)
    assert run(["./translated"], work, env={"TRANSLATE_DEVICE": "cpu"}) == expected


LIBRARY_USER = """\
module io_mod
  use mpi
  implicit none
  integer(kind=MPI_OFFSET_KIND) :: disp
  integer(MPI_OFFSET_KIND) :: counts(MPI_STATUS_SIZE)
contains
  subroutine seek(fh)
    integer(kind=MPI_OFFSET_KIND) :: off
    integer :: fh, ierr
    off = 0_MPI_OFFSET_KIND
    call MPI_File_seek(fh, off, MPI_SEEK_SET, ierr)
  end subroutine seek
end module io_mod

subroutine legacy(buf)
  use mpi
  implicit integer(kind=MPI_OFFSET_KIND) (o)
  dimension buf(10)
  offs = 0
  buf = real(offs)
end subroutine legacy

subroutine step(n, x, y)
  use netcdf
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y(n)
  integer(kind=nf90_int64) :: varid
  integer :: i
  !$translate data copyin(x) copy(y)
  !$translate kernel step_k
  do i = 1, n
     y(i) = 2*x(i) + y(i)
  end do
  !$translate end kernel
  !$translate end data
end subroutine step
"""


def test_library_module_kinds_outside_regions_are_harmless(tmp_path: Path):
    """Before: the whole file failed on MPI_OFFSET_KIND (exit 1).  The module and the
    declaration the region does not use stay as written; the region is translated."""
    (tmp_path / "app.f90").write_text(LIBRARY_USER)
    proc = _translate("app.f90", "-o", "out", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    rewritten = (tmp_path / "out" / "app.f90").read_text()
    assert past_stamp(rewritten).startswith(LIBRARY_USER[:LIBRARY_USER.index("subroutine step")])
    assert "  integer(kind=nf90_int64) :: varid\n" in rewritten
    assert "call translate_step_k(" in rewritten and "do i = 1, n" not in rewritten
    assert "y[" in (tmp_path / "out" / "app.cl").read_text()


def test_region_using_a_library_kind_is_a_located_error(tmp_path: Path):
    """A region that does need the name gets the missing-module error at its declaration."""
    text = LIBRARY_USER.replace("y(i) = 2*x(i) + y(i)", "y(i) = 2*x(i) + y(i) + varid")
    (tmp_path / "app.f90").write_text(text)
    proc = _translate("app.f90", "-o", "out", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0].startswith(
        "app.f90:28:16: error: 'nf90_int64' is not declared here; it may come from module "
        "'netcdf', whose source was not found"), proc.stderr
    assert any(x.startswith("app.f90:24:7: note: module 'netcdf' is used here") for x in lines)
    assert not (tmp_path / "out").exists()


BROKEN_MODULE = "module badmod\n  implicit none\n  real :: q(10\nend module badmod\n"

USES_BROKEN = """\
module user_mod
  use badmod
end module user_mod
subroutine s(n, a)
  implicit none
  integer :: n, i
  real :: a(n)
  !$translate kernel
  do i = 1, n
    a(i) = 2*a(i)
  end do
  !$translate end kernel
end subroutine s
"""

NEEDS_BROKEN = """\
subroutine t(n)
  use badmod
  implicit none
  integer :: n, i
  !$translate kernel
  do i = 1, n
    q(i) = 1
  end do
  !$translate end kernel
end subroutine t
"""


def test_unreadable_module_fails_only_a_region_that_needs_it(tmp_path: Path):
    """Modules are now read before declarations: one fparser cannot parse must still only
    matter where a region needs a name from it (then its syntax error is the error)."""
    (tmp_path / "bad.f90").write_text(BROKEN_MODULE)
    (tmp_path / "main.f90").write_text(USES_BROKEN)
    proc = _translate("main.f90", "-o", "out", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (tmp_path / "main.f90").write_text(USES_BROKEN + NEEDS_BROKEN)
    proc = _translate("main.f90", "-o", "out2", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("bad.f90:3:3: error: Fortran syntax error"), proc.stderr
