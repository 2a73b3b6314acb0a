"""Derived-type state in regions and data directives (issue 21 item 2): component arrays
(allocatable and explicit-shape) and scalar components of a dummy and of a module variable
used inside regions, a data region around a time loop with components in its clauses and an
``update host`` of a component, run on the CPU OpenCL device against the original."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import check_sample, run, runtime_dir, runtime_object

STATE = """\
module kinds
  implicit none
  integer, parameter :: dp = kind(1.0d0)
end module kinds

module state_mod
  use kinds
  implicit none
  type field_t
    real(dp), allocatable :: density0(:, :)
  end type field_t
  type tile_t
    integer :: nx
    type(field_t) :: field
  end type tile_t
  type chunk_t
    type(tile_t) :: tiles(2)
  end type chunk_t
  type state_t
    real(dp), allocatable :: u(:, :), f(:, :)
    real(dp) :: w(8)
    real(dp) :: dt
    integer :: n
  end type state_t
  type(state_t) :: gst
contains
  subroutine step(st)
    type(state_t), intent(inout) :: st
    integer :: i, j
    !$translate kernel step_k
    do j = 1, st%n
      do i = 0, st%n - 1
        st%u(i, j) = st%u(i, j) + st%dt * st%f(i + 1, j)
      end do
    end do
    !$translate end kernel
  end subroutine step

  subroutine relax(c, k)
    type(chunk_t), intent(inout) :: c
    integer, intent(in) :: k
    integer :: i, j
    !$translate kernel relax_k
    do j = 1, c%tiles(k)%nx
      do i = 1, c%tiles(k)%nx
        c%tiles(k)%field%density0(i, j) = 0.5_dp * c%tiles(k)%field%density0(i, j) &
            + gst%w(mod(i + j, 8) + 1)
      end do
    end do
    !$translate end kernel
  end subroutine relax
end module state_mod

program main
  use kinds
  use state_mod
  implicit none
  type(chunk_t) :: chunk
  integer :: i, j, t, n
  n = 37
  gst%n = n
  gst%dt = 0.125_dp
  allocate(gst%u(0:n - 1, n), gst%f(n, n))
  do j = 1, n
    do i = 1, n
      gst%u(i - 1, j) = sin(0.1_dp * i) + cos(0.05_dp * j)
      gst%f(i, j) = 1.0_dp / (i + j)
    end do
  end do
  do i = 1, 8
    gst%w(i) = 0.25_dp * i
  end do
  chunk%tiles(1)%nx = 20
  chunk%tiles(2)%nx = 1
  allocate(chunk%tiles(1)%field%density0(20, 20), chunk%tiles(2)%field%density0(1, 1))
  chunk%tiles(1)%field%density0 = 3.0_dp
  chunk%tiles(2)%field%density0 = -1.0_dp
  !$translate data copyin(gst%f, gst%w) copy(gst%u, chunk%tiles(1)%field%density0)
  do t = 1, 6
    call step(gst)
    call relax(chunk, 1)
    if (t == 3) then
      !$translate update host(gst%u)
      print '(es24.16)', sum(gst%u)
    end if
  end do
  !$translate end data
  print '(3es24.16)', sum(gst%u), gst%u(0, 1), gst%u(n - 1, n)
  print '(2es24.16)', sum(chunk%tiles(1)%field%density0), chunk%tiles(1)%field%density0(3, 7)
end program main
"""


ARRAY_SYNTAX = """\
module m
  implicit none
  type st_t
    real(8), allocatable :: u(:, :)
    real(8) :: v(5)
    real(8) :: dt
  end type
end module
program p
  use m
  implicit none
  type(st_t) :: st
  integer :: j
  allocate(st%u(4, 3))
  st%u = 1
  st%v = 2
  st%dt = 0.5d0
  !$translate kernel
  do j = 1, 3
    st%u(:, j) = st%u(:, j) * j + st%dt
  end do
  st%v = st%v + st%dt
  st%v(2:3) = 7
  !$translate end kernel
  print *, sum(st%u), st%v
end program
"""


def test_array_syntax_on_components_matches_the_original(tmp_path: Path):
    """Whole components and sections in array assignments: an allocatable component's
    column, an explicit-shape component whole and as a section, a scalar component."""
    src = tmp_path / "arr.f90"
    src.write_text(ARRAY_SYNTAX)
    check_sample(src, tmp_path)


TYPES_MODULE = """\
module types_mod
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: wp = real64
  type base_t
    real(wp), allocatable :: u(:)
  end type base_t
  type, extends(base_t) :: child_t
    real(wp) :: dt
    integer :: n
  end type child_t
end module types_mod
"""

EXTENDED = """\
subroutine step(s)
  use types_mod
  implicit none
  type(child_t), intent(inout) :: s
  integer :: i
  !$translate kernel step_k
  do i = 1, s%n
    s%u(i) = s%u(i) * 2 + s%dt
  end do
  !$translate end kernel
end subroutine step

program main
  use types_mod
  implicit none
  type(child_t) :: s
  integer :: i
  s%n = 50
  s%dt = 0.5_wp
  allocate(s%u(s%n))
  do i = 1, s%n
    s%u(i) = i
  end do
  !$translate data copy(s%u)
  do i = 1, 3
    call step(s)
  end do
  !$translate end data
  print '(2es24.16)', sum(s%u), s%u(7)
end program main
"""


def test_extended_type_from_a_module_file(tmp_path: Path):
    """The type is defined in a module of another file (found with -I) and extends another
    type: the parent's components and the module's kind serve the region."""
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "types.f90").write_text(TYPES_MODULE)
    (tmp_path / "main.f90").write_text(EXTENDED)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", "main.f90", "-I", "mods",
                           "-o", "out"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    rt = runtime_dir()
    run(["gfortran", "-O1", "mods/types.f90", "main.f90", "-o", "original"], tmp_path)
    run(["gfortran", "-c", "-O1", "mods/types.f90"], tmp_path)
    run(["gcc", "-c", "-O1", f"-I{rt}", "out/main.host.c"],
        tmp_path)
    run(["gfortran", "-O1", "types.o", "out/main.f90", "main.host.o", str(runtime_object()),
         "-lOpenCL", "-o", "translated"], tmp_path)
    expected = run(["./original"], tmp_path)
    assert run(["./translated"], tmp_path, env={"TRANSLATE_DEVICE": "cpu"}) == expected


def _translate(src: Path, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", "out"],
                          cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("clause", ["copyin(gst%f, gst%w)",
                                    "copyin(gst%f(1:n, 1:n), gst % w(1:8))"])
def test_derived_state_with_a_data_region_matches_the_original(tmp_path: Path, clause: str):
    """Before: 'malformed data clause item' for gst%f, and 'derived-type component access'
    refused in the regions.  After: bit-identical, and the regions move no data (the data
    region holds every component they use, whole or as sections)."""
    src = tmp_path / "state.f90"
    src.write_text(STATE.replace("copyin(gst%f, gst%w)", clause, 1))
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / "state.f90").read_text()
    assert "call translate_step_k(st%u, st%f, " in rewritten
    assert "c%tiles(k)%field%density0" in rewritten and "lbound(st%u, 1)" in rewritten
    env = {**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1"}
    profile = subprocess.run(["./translated"], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=300, check=True).stderr
    for region in ("step_k", "relax_k"):
        line = next(x for x in profile.splitlines() if x.startswith(region))
        assert re.search(r"\s6\s+\S+\s+0\s+0$", line), profile


def _error(tmp_path: Path, old: str, new: str) -> str:
    assert old in STATE
    (tmp_path / "state.f90").write_text(STATE.replace(old, new, 1))
    proc = _translate(Path("state.f90"), tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()
    return proc.stderr.splitlines()[0]


def test_unknown_component_is_a_located_error(tmp_path: Path):
    first = _error(tmp_path, "st%dt * st%f(i + 1, j)", "st%dt * st%g(i + 1, j)")
    assert first == "state.f90:33:46: error: type 'state_t' has no component 'g'"


def test_region_varying_inner_subscript_is_refused(tmp_path: Path):
    first = _error(tmp_path, "+ gst%w(mod(i + j, 8) + 1)", "+ c%tiles(i)%nx")
    assert first == ("state.f90:46:9: error: the subscripts of c % tiles(i) % nx before its "
                     "last component depend on 'i', which changes inside the region (only the "
                     "last component can be subscripted by the region's loops)")


def test_scalar_component_in_a_data_clause_is_an_error(tmp_path: Path):
    first = _error(tmp_path, "copyin(gst%f, gst%w)", "copyin(gst%f, gst%dt)")
    assert first == "state.f90:78:3: error: 'gst%dt' in a data clause is not an array"


def test_one_component_under_two_subscripts_is_refused(tmp_path: Path):
    """c%tiles(k)%field%density0 and c%tiles(1)%field%density0 may be one array: since h85
    the region packs every tile's density0 into one array (the analysis compares the two),
    so the data clause holding chunk%tiles(1)%field%density0 on the device is the error
    (before: "'c%tiles(1)%field%density0' and 'c%tiles(k)%field%density0' may be the same
    array" at the region)."""
    first = _error(tmp_path, "0.5_dp * c%tiles(k)%field%density0(i, j)",
                   "0.5_dp * c%tiles(1)%field%density0(i, j)")
    assert first == ("state.f90:78:3: error: 'chunk%tiles(1)%field%density0' in a data "
                     "clause: region relax_k copies 'field%density0' of every element of an "
                     "array of type 'tile_t' into one array at its call, from and to the host, "
                     "never this device copy (which would be stale, and copied back over the "
                     "region's results); leave it out of data clauses, or, to keep it on the "
                     "device, make the region use one element at a time (loop over the "
                     "elements of 'c%tiles' around the region: a region whose 'c%tiles' "
                     "subscript is fixed passes 'chunk%tiles(1)%field%density0' as it is, and "
                     "a data clause holds it) or keep the components in one array of your "
                     "own, named in the region and in the clause")
