"""An intermediate computed in one loop nest and used in another: kept as a temporary (the
default, lappy's ``pin``) or recomputed at each use (``assignment_to_subst``, lappy's
``pin_cse`` seen from the other side): both match the original program."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.driver import translate_text

SOURCE = """\
subroutine f(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(out) :: y(n)
  real(8) :: t(n)
  integer :: i
  !$translate kernel k
{pragma}
  do i = 1, n
     t(i) = sin(x(i))
  end do
  do i = 1, n
     y(i) = t(i) * cos(x(i))
  end do
  !$translate end kernel
end subroutine

program main
  implicit none
  integer, parameter :: n = 1000
  real(8) :: x(n), y(n)
  integer :: i
  do i = 1, n
     x(i) = 0.001d0 * i
  end do
  call f(n, x, y)
  print '(3es25.16)', y(1), y(n/2), sum(y)
end program
"""

VARIANTS = {
    "kept as a temporary": "",
    "recomputed at each use": '  !$translate assignment_to_subst("t")',
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_intermediate(variant: str, tmp_path: Path) -> None:
    src = tmp_path / "pin.f90"
    src.write_text(SOURCE.format(pragma=VARIANTS[variant]))
    result = translate_text(str(src), src.read_text())
    _, kernel, _ = result.regions[0]
    writes_t = any("t" in s.assignee_names() for s in kernel.statements)
    assert writes_t == (variant == "kept as a temporary")
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)
