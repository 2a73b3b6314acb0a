"""Preprocessed Fortran on PoCL: each program translated with -D/-I, built from the rewritten
source with ``gfortran -cpp`` and the same flags, and compared with the original built so."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tests.build.helpers import BIN
from tests.e2e.harness import TRANSLATE, past_stamp, run, runtime_dir, runtime_object

KINDS = """\
program kinds
  implicit none
#ifdef SP
  integer, parameter :: wp = 4
#else
  integer, parameter :: wp = 8
#endif
  integer, parameter :: n = 1000
  real(wp) :: a(n), b(n)
  integer :: i
  do i = 1, n
     a(i) = real(i, wp) / 7
  end do
  !$translate kernel
  do i = 1, n
     b(i) = a(i) * a(i) / 3 + 1
  end do
  !$translate end kernel
  print '(es28.18)', sum(b), b(1), b(n)
end program
"""

PARAMS = """\
! sizes and constants of the model
  integer, parameter :: nx = 40, &
                        ny = 30   ! grid
#include "coeffs.h"
"""

COEFFS = "  real(8), parameter :: c0 = 0.25d0; real(8), parameter :: c1 = 0.5d0\n"

MACROS = """\
#define SQR(x) ((x)*(x))
#define IDX(i, j) ((j) - 1)*nx + (i)
#define SMOOTH(u, i, j) \\
   (c0*(u(i-1, j) + u(i+1, j)) + c1*u(i, j))
program stencil
  implicit none
#include "params.h"
  real(8) :: u(nx, ny), v(nx, ny), flat(nx*ny)
  integer :: i, j
  do j = 1, ny
     do i = 1, nx
        u(i, j) = sin(0.1d0*i) + cos(0.2d0*j)
     end do
  end do
  v = 0
  flat = 0
  !$translate kernel stencil_k
  do j = 1, ny
     do i = 2, nx - 1
        v(i, j) = SMOOTH(u, i, j) + SHIFT*SQR(u(i, j))
        flat(IDX(i, j)) = SQR(v(i, j))
     end do
  end do
  !$translate end kernel
  print '(3es26.17)', sum(v), sum(flat(nx+2:nx*ny-1)), v(7, 9)
end program
"""

FIXED = """\
      program fixed
      implicit none
#include "fixed.h"
#ifdef SP
      real a(n), b(n)
#else
      double precision a(n), b(n)
#endif
#define TWICE(x) (2*(x))
      integer i
      do 10 i = 1, n
         a(i) = i / 3.0
   10 continue
c$translate kernel
      do 20 i = 1, n
         b(i) = TWICE(a(i)) + SCALE
   20 continue
c$translate end kernel
      print '(2es26.17)', sum(b), b(n)
      end
"""

BRANCHES = """\
program branches
  implicit none
  integer, parameter :: n = 500
  real(8) :: a(n), b(n)
  integer :: i
  a = [(0.5d0*i, i = 1, n)]
#ifdef GPU
  !$translate kernel
  do i = 1, n
     b(i) = 3*a(i)
  end do
  !$translate end kernel
#else
  do i = 1, n
     b(i) = 3*a(i) + 1
  end do
#endif
  print *, sum(b)
end program
"""


def build_both(tmp: Path, name: str, flags: list[str], translate_flags: list[str] = ()
               ) -> tuple[str, str, Path]:
    """The original's and the translated program's output (gfortran -cpp, same flags)."""
    src = tmp / name
    out = tmp / "out"
    run(["gfortran", "-O1", "-cpp", *flags, name, "-o", "original"], tmp)
    run([*TRANSLATE, str(src), "-o", str(out), *flags, *translate_flags], tmp)
    rt = runtime_dir()
    run(["gcc", "-c", "-O1", f"-I{rt}", str(out / f"{src.stem}.host.c")], tmp)
    # the rewritten source keeps its #include lines: the original's directory goes first
    run(["gfortran", "-O1", "-cpp", f"-I{tmp}", *flags, str(out / name), f"{src.stem}.host.o",
         str(runtime_object()), "-lOpenCL", "-o", "translated"], tmp)
    expected = run(["./original"], tmp)
    actual = run(["./translated"], tmp, env={"TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1"})
    return expected, actual, out


def write(tmp: Path, name: str, text: str) -> None:
    path = tmp / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text) if not text.startswith(" ") else text)


@pytest.mark.parametrize("flags, ctype", [(["-DSP"], "float"), ([], "double")])
def test_ifdef_chooses_the_kernel_kind(tmp_path, flags, ctype):
    write(tmp_path, "kinds.F90", KINDS)
    expected, actual, out = build_both(tmp_path, "kinds.F90", flags)
    assert actual == expected
    kernel = (out / "kinds.cl").read_text()
    assert f"__global {ctype} *restrict b" in kernel and f"__global {ctype} const" in kernel
    rewritten = (out / "kinds.F90").read_text()
    assert "#ifdef SP\n  integer, parameter :: wp = 4\n#else\n" in rewritten


@pytest.mark.parametrize("shift", ["1", "0.5d0"])
def test_macros_and_includes_in_a_region(tmp_path, shift):
    write(tmp_path, "inc/params.h", PARAMS)
    write(tmp_path, "inc/coeffs.h", COEFFS)
    write(tmp_path, "stencil.F90", MACROS)
    flags = ["-Iinc", f"-DSHIFT={shift}"]
    expected, actual, out = build_both(tmp_path, "stencil.F90", flags)
    assert actual == expected
    rewritten = (out / "stencil.F90").read_text()
    assert past_stamp(rewritten).startswith(MACROS.split("  real(8) ::")[0])
    assert "call translate_stencil_k(" in rewritten and "= SMOOTH(" not in rewritten


@pytest.mark.parametrize("flags, ctype", [(["-DSP", "-DSCALE=2"], "float"),
                                          (["-DSCALE=1.5d0"], "double")])
def test_fixed_form_F(tmp_path, flags, ctype):
    write(tmp_path, "fixed.h", "      integer n\n      parameter (n = 300)\n")
    (tmp_path / "fixed.F").write_text(FIXED)
    expected, actual, out = build_both(tmp_path, "fixed.F", flags)
    assert actual == expected
    assert f"__global {ctype} *restrict b" in (out / "fixed.cl").read_text()


@pytest.mark.parametrize("flags, regions", [(["-DGPU"], 1), ([], 0)])
def test_region_inside_an_ifdef_branch(tmp_path, flags, regions):
    write(tmp_path, "branches.F90", BRANCHES)
    expected, actual, out = build_both(tmp_path, "branches.F90", flags, ["--all-outputs"])
    assert actual == expected
    rewritten = (out / "branches.F90").read_text()
    assert ("call translate_branches_0(" in rewritten) == bool(regions)
    assert rewritten.count("#ifdef GPU\n") == 1 and "#else\n  do i = 1, n\n" in rewritten


def test_translate_fc_passes_defines_and_cpp(tmp_path):
    """translate-fc gives the compiler's -D and -cpp to the translator: a .f90 file compiled
    with -cpp -DSP gets a float kernel and matches the original."""
    write(tmp_path, "kinds.f90", KINDS)
    run(["gfortran", "-O1", "-cpp", "-DSP", "kinds.f90", "-o", "original"], tmp_path)
    run([str(BIN / "translate-fc"), "gfortran", "-O1", "-cpp", "-DSP", "kinds.f90", "-o",
         "translated"], tmp_path, env={"TRANSLATE_BUILD_DIR": str(tmp_path / "tb")})
    expected = run(["./original"], tmp_path)
    assert run(["./translated"], tmp_path, env={"TRANSLATE_DEVICE": "cpu"}) == expected
    (kernel,) = (tmp_path / "tb").glob("kinds-*/kinds.cl")
    assert "__global float *restrict b" in kernel.read_text()
