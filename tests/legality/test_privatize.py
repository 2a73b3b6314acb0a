"""Privatisation of work arrays: private when every iteration writes before it reads and the
array is dead after the region; otherwise shared, and a parallel mapping is refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import LegalityError
from translator.driver import translate_text

FORTRAN = """\
subroutine f(n, a, b)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(out) :: b(n)
  real(8) :: w(3)
  integer :: i, k
  !$translate kernel k
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
{body}
  end do
  !$translate end kernel
{after}
end subroutine

program main
  implicit none
  integer, parameter :: n = 300
  real(8) :: a(n), b(n)
  integer :: i
  do i = 1, n
     a(i) = 0.5d0 * i
  end do
  call f(n, a, b)
  print '(3es25.16)', b(1), b(n/2), sum(b)
end program
"""

C = """\
void f(int n, const double a[n], double b[n])
{{
  double w[3];
#pragma translate kernel k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {{
{body}
  }}
#pragma translate end kernel
{after}
}}
"""

BODIES = {
    "written before read": (
        "     do k = 1, 3\n        w(k) = k * a(i)\n     end do\n     b(i) = w(1) + w(2) * w(3)",
        "    for (int k = 0; k < 3; k++)\n      w[k] = (k + 1) * a[i];\n"
        "    b[i] = w[0] + w[1] * w[2];"),
    "read before written": (
        "     b(i) = w(1)\n     do k = 1, 3\n        w(k) = k * a(i)\n     end do",
        "    b[i] = w[0];\n    for (int k = 0; k < 3; k++)\n      w[k] = (k + 1) * a[i];"),
    "an element read is never written": (
        "     do k = 1, 2\n        w(k) = k * a(i)\n     end do\n     b(i) = w(1) + w(3)",
        "    for (int k = 0; k < 2; k++)\n      w[k] = (k + 1) * a[i];\n    b[i] = w[0] + w[2];"),
}
AFTER = {"fortran": "  b(1) = w(2)", "c": "  b[0] = w[1];"}


def _source(lang: str, case: str, used_after: bool = False) -> tuple[str, str]:
    body = BODIES[case][0 if lang == "fortran" else 1]
    after = AFTER[lang] if used_after else ""
    if lang == "fortran":
        return "p.f90", FORTRAN.format(body=body, after=after)
    return "p.c", C.format(body=body, after=after)


def _private(lang: str, case: str, used_after: bool = False) -> bool:
    path, text = _source(lang, case, used_after)
    _, kernel, _ = translate_text(path, text).regions[0]
    return "w" in kernel.temporaries and kernel.arg("w") is None


@pytest.mark.parametrize("lang", ["fortran", "c"])
def test_work_array_written_before_read_is_private(lang: str) -> None:
    assert _private(lang, "written before read")


def test_privatised_program_matches_the_original(tmp_path: Path) -> None:
    src = tmp_path / "p.f90"
    src.write_text(_source("fortran", "written before read")[1])
    (tmp_path / "w").mkdir()
    check_sample(src, tmp_path / "w")


@pytest.mark.parametrize("lang", ["fortran", "c"])
@pytest.mark.parametrize("case,used_after", [("read before written", False),
                                             ("an element read is never written", False),
                                             ("written before read", True)])
def test_shared_work_array_makes_the_mapping_race(lang: str, case: str, used_after: bool
                                                  ) -> None:
    path, text = _source(lang, case, used_after)
    with pytest.raises(LegalityError, match=r"mapping i_inner to l\.0 races: .* w\["):
        translate_text(path, text)
