"""Regions inside BLOCK and ASSOCIATE constructs (h67 differential hunt over modern Fortran).
The region builder knows the procedure's declarations only.  Before, a region inside a
``block`` that declares ``real(8) :: t(2*n)`` over the procedure's ``t(n)`` took ``t`` for the
procedure's array (n elements copied, ``t(i + n)`` read past them: exit 0, garbage), and a
region using an associate name (``v`` of ``associate (v => g%v)``) was "call of unknown
external procedure 'v'".  Now such a use is refused at its line, naming the construct; a
region inside these constructs that uses other names is translated as before."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

SHADOWED = """\
program block2
  implicit none
  integer, parameter :: n = 12
  real(8) :: t(n), v(n)
  integer :: i
  t = 1.0d0
  block
    real(8) :: t(2 * n)
    do i = 1, 2 * n
      t(i) = dble(i)
    end do
    !$translate kernel bl2
    do i = 1, n
      v(i) = t(i + n) * 2.0d0
    end do
    !$translate end kernel
  end block
  write(*, '(4ES24.16)') v, t
end program block2
"""

ASSOCIATED = """\
program assoc2
  implicit none
  type grid_t
    real(8), allocatable :: u(:, :), v(:, :)
  end type
  type(grid_t) :: g
  integer, parameter :: nx = 20, ny = 6
  integer :: i, j
  allocate(g%u(nx, ny), g%v(nx, ny))
  g%u = 1.0d0
  g%v = 0.0d0
  associate (u => g%u, v => g%v)
    !$translate kernel as
    do j = 1, ny
      do i = 1, nx
        v(i, j) = u(i, j) * 2.0d0
      end do
    end do
    !$translate end kernel
  end associate
  write(*, '(3ES24.16)') g%v
end program assoc2
"""

OTHER_NAMES = """\
program block3
  implicit none
  integer, parameter :: n = 12
  real(8) :: t(n), v(n)
  type g_t
    real(8) :: t(n)
  end type
  type(g_t) :: g
  integer :: i
  t = 1.0d0
  g%t = 3.0d0
  block
    real(8) :: q(2 * n)
    q = 5.0d0
    associate (z => q(1:n))
      !$translate kernel bl3
      do i = 1, n
        v(i) = t(i) * 2.0d0 + g%t(i) + dble(i)
      end do
      !$translate end kernel
      z = v
    end associate
    t = q(1:n) + q(n+1:2*n)
  end block
  write(*, '(4ES24.16)') v, t
end program block3
"""


def _refusal(tmp_path: Path, name: str, text: str) -> str:
    src = tmp_path / name
    src.write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], capture_output=True, text=True, timeout=300,
                          check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    return done.stderr


def test_a_block_local_hiding_a_procedure_variable_is_the_blocks(tmp_path: Path) -> None:
    """Refused before h85 ("'t' is a local variable of the BLOCK construct at line 7 around
    the region"); the region's scope now holds the BLOCK's declarations, so ``t`` is the
    BLOCK's ``t(2 * n)`` (the h67 defect, reading the procedure's ``t(n)``, must not come
    back: the output would differ)."""
    src = tmp_path / "block2.f90"
    src.write_text(SHADOWED)
    check_sample(src, tmp_path)


def test_an_associate_name_of_a_component_is_its_alias(tmp_path: Path) -> None:
    """Refused before h85 ("'v' is an associate name of the ASSOCIATE construct at line 12
    around the region"); a whole component's associate name is now an alias of it
    (tests/e2e/test_enclosing_associate.py has the refusals left)."""
    src = tmp_path / "assoc2.f90"
    src.write_text(ASSOCIATED)
    check_sample(src, tmp_path)


def test_a_region_inside_block_and_associate_using_other_names_matches(tmp_path: Path) -> None:
    src = tmp_path / "block3.f90"
    src.write_text(OTHER_NAMES)
    check_sample(src, tmp_path)
