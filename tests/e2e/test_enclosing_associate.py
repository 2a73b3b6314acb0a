"""End to end: regions inside an ASSOCIATE construct that use its names (h85).  An associate
name of a whole variable or component (``u => grid%u``, ``nx => grid%nx``, ``a =>
grid%alpha``) is an alias of it in the region: the same data wherever the region is, and the
call, inside the construct, passes the selector.  Before: "'u' is an associate name of the
ASSOCIATE construct at line 16 around the region, which the region cannot use".  A section
or element whose subscripts read only local names that nothing in the construct outside the
region mentions is a view of it too.  Other sections, expressions (their values on entry)
and names hiding a procedure variable stay refused with that message."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

SECTION = """\
program assoc3
  implicit none
  real(8) :: a(6, 4)
  integer :: i, j
  a = 1.0d0
  j = 2
  associate (col => a(:, j))
    j = 3
    !$translate kernel sec
    do i = 1, 6
      col(i) = col(i) + dble(i)
    end do
    !$translate end kernel
  end associate
  print *, a
end program assoc3
"""

SHADOW = """\
program assoc4
  implicit none
  type g_t
    real(8) :: u(5)
  end type
  type(g_t) :: g
  real(8) :: u(5), w(5)
  integer :: i
  g%u = 2.0d0
  u = 1.0d0
  associate (u => g%u)
    !$translate kernel sh
    do i = 1, 5
      w(i) = u(i)
    end do
    !$translate end kernel
  end associate
  print *, w
end program assoc4
"""


def test_associate_names_of_components_in_regions_match(tmp_path: Path) -> None:
    """An OpenMP loop and a translate region inside ``associate (u => grid%u, un =>
    grid%unew, a => grid%alpha, nx => grid%nx)``."""
    check_sample(REPO / "bench" / "h85_hunt" / "assoc1.f90", tmp_path)
    rewritten = (tmp_path / "out" / "assoc1.f90").read_text()
    assert rewritten.count("call translate_step_0(") == 1
    assert "!$omp target teams" not in rewritten.split("program assoc1")[0]


def test_a_section_unchanged_since_the_construct_began_is_its_view(tmp_path: Path) -> None:
    """h67's assoc2.f90: ``associate (u => g%u, v => g%v, s => g%u(:, 2))`` around a region
    reading ``s(i)``: nothing in the construct outside the region mentions the section's
    subscripts, so the region evaluates them again (refused before)."""
    check_sample(REPO / "bench" / "h67_hunt" / "assoc2.f90", tmp_path)


def _refusal(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", name, "-o", "out"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    return done.stderr


def test_a_section_selector_fixed_on_entry_is_still_refused(tmp_path: Path) -> None:
    err = _refusal(tmp_path, "assoc3.f90", SECTION)
    assert err.startswith("assoc3.f90:11:7: error: 'col' is an associate name of the ASSOCIATE "
                          "construct at line 7 around the region, which the region cannot use; "
                          "write its selector (a(:, j)) in the region instead")


def test_an_associate_name_hiding_a_variable_is_still_refused(tmp_path: Path) -> None:
    err = _refusal(tmp_path, "assoc4.f90", SHADOW)
    assert err.startswith("assoc4.f90:14:14: error: 'u' is an associate name of the ASSOCIATE "
                          "construct at line 11 around the region")
