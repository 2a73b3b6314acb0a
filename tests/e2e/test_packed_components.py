"""End to end: array components of the elements of an array of derived type in regions
(h85): ``sp(k)%v(i)``, ``c%blk(b)%u(i, j)``, ``t(ib, jb)%rho(i)``, where the subscripts of
the array of derived type change in the region.  Fortran has no designator for all of them
(``sp%v`` is not allowed), so the call is wrapped in a BLOCK that packs each component into
one array (component axes first) and copies back the written ones
(`frontends.fortran.packing`).  Before: "the subscripts of sp(k) % v(i) before its last
component depend on 'k'"; ``size(q%v)`` was "only whole named arrays are supported"; a data
clause naming one element's component of a packed array (``copy(b(2)%w)``) gave a silent
wrong result (the end of the data region copied a stale device copy back), now an error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import SampleOptions, build_translated, check_sample, run, runtime_dir

HERE = Path(__file__).parent / "packed_components"
HUNT = Path(__file__).parents[2] / "bench" / "h85_hunt"

BOUNDS = """\
program mism
  implicit none
  type b_t
    real(8), allocatable :: w(:)
  end type
  type(b_t) :: b(3)
  integer :: k, i
  allocate(b(1)%w(4), b(2)%w(4), b(3)%w(5))
  do k = 1, 3
    b(k)%w = k
  end do
  !$translate kernel mm
  do k = 1, 3
    do i = 1, 4
      b(k)%w(i) = b(k)%w(i) * 2
    end do
  end do
  !$translate end kernel
  print *, b(2)%w
end program
"""

CLAUSE = """\
program dclause
  implicit none
  type b_t
    real(8) :: w(4)
  end type
  type(b_t) :: b(3)
  integer :: k, i, s
  do k = 1, 3
    b(k)%w = k
  end do
  !$translate data copy(b(2)%w)
  do s = 1, 2
  !$translate kernel mm
  do k = 1, 3
    do i = 1, 4
      b(k)%w(i) = b(k)%w(i) * 2
    end do
  end do
  !$translate end kernel
  end do
  !$translate end data
  print *, b(2)%w
end program
"""


def test_packed_components_match_the_original(tmp_path: Path) -> None:
    """Three regions over packed components (one of them with a fixed element beside the
    varying ones, proved by the OpenACC claim) and ``size`` of a component."""
    check_sample(HERE / "packed.f90", tmp_path)
    rewritten = (tmp_path / "out" / "packed.f90").read_text()
    assert "tr_pack_sp_v(:, tr_pk0_1) = sp(tr_pk0_1)%v" in rewritten
    assert "c%blk(tr_pk0_1)%u = tr_pack_c_blk_u(:, :, tr_pk0_1)" in rewritten
    assert "'!$acc" not in rewritten.split("program packed")[0].replace("!$acc parallel", "")


def test_two_fixed_elements_of_one_component_are_packed(tmp_path: Path) -> None:
    """``blk(kb)%u(i, j)`` beside ``blk(1)%u(i, j)`` (kb may be 1): before, "'blk(1)%u' and
    'blk(kb)%u' may be the same array"; now both are elements of the packed array."""
    check_sample(HUNT / "parts2.f90", tmp_path)
    rewritten = (tmp_path / "out" / "parts2.f90").read_text()
    assert "tr_pack_blk_u(:, :, tr_pk0_1) = blk(tr_pk0_1)%u" in rewritten


def test_fixed_form_packing_keeps_to_column_72(tmp_path: Path) -> None:
    check_sample(HERE / "packedf.f", tmp_path)
    lines = (tmp_path / "out" / "packedf.f").read_text().splitlines()
    assert any("tr_pack_cellblocksofthegrid_fieldofcells_e" in line for line in lines)
    assert all(len(line) <= 72 for line in lines if line[:1] not in ("#", "C", "!"))


def test_elements_with_other_bounds_stop_the_program(tmp_path: Path) -> None:
    src = tmp_path / "mism.f90"
    src.write_text(BOUNDS)
    exe = build_translated(src, tmp_path, SampleOptions())
    proc = subprocess.run([str(exe)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={"TRANSLATE_DEVICE": "cpu", "PATH": "/usr/bin"})
    assert proc.returncode != 0
    assert "translate: the elements of b have w of different bounds, which region mm packs " \
           "into one array" in proc.stderr.replace("\n", "")


def test_data_clause_of_a_packed_component_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "dclause.f90").write_text(CLAUSE)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", "dclause.f90", "-o", "out"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(
        "dclause.f90:11:3: error: 'b(2)%w' in a data clause: region mm copies 'w' of every "
        "element of an array of type 'b_t' into one array at its call")


PACKMOD = """\
module packmod
  implicit none
  type b_t
    real(8) :: w(4)
  end type
contains
  subroutine twice(b, n)
    integer, intent(in) :: n
    type(b_t), intent(inout) :: b(n)
    integer :: k, i
    !$translate kernel tw
    do k = 1, n
      do i = 1, 4
        b(k)%w(i) = b(k)%w(i) * 2
      end do
    end do
    !$translate end kernel
  end subroutine
end module
"""

PACKMAIN = """\
program packmain
  use packmod
  implicit none
  type(b_t) :: b(3)
  integer :: k
  do k = 1, 3
    b(k)%w = k
  end do
  !$translate data copy(b(2)%w)
  call twice(b, 3)
  !$translate end data
  print *, b(2)%w
end program
"""


def test_a_packed_component_held_in_another_file_stops_the_program(tmp_path: Path) -> None:
    """The data region is in another file than the region (no static check sees both): the
    packing checks each element against the present table at the call."""
    (tmp_path / "packmod.f90").write_text(PACKMOD)
    (tmp_path / "packmain.f90").write_text(PACKMAIN)
    run([sys.executable, "-m", "translator.cli", "packmod.f90", "packmain.f90", "-o", "out"],
        tmp_path)
    rt = runtime_dir()
    run(["gcc", "-c", f"-I{rt}", "out/packmod.host.c", "out/packmain.host.c",
         str(rt / "translate_rt.c")], tmp_path)
    run(["gfortran", "out/packmod.f90", "out/packmain.f90", "packmod.host.o", "packmain.host.o",
         "translate_rt.o", "-lOpenCL", "-o", "prog"], tmp_path)
    proc = subprocess.run(["./prog"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={"TRANSLATE_DEVICE": "cpu", "PATH": "/usr/bin"})
    assert proc.returncode == 1
    assert proc.stderr.startswith(
        "translate runtime: b(...)%w is present on the device ('b(2)%w' entered at "
        "packmain.f90:9), but region tw copies it from and to the host at each "
        "call"), proc.stderr
