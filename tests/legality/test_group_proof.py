"""Accesses to one array proved together (issue 24): hundreds of statements on one array cost
one proof per group of accesses, not one per pair, and the verdicts stay those of the pairs.

- A group whose accesses stay inside their extents is cut into buckets by constant
  subscripts (``a(i, 3)`` never meets ``a(i, 4)``) and proved bucket by bucket.
- An access that leaves its extent (``a(i + 1, 1)`` at ``i = m`` is ``a(1, 2)``) is never
  proved with the group: compared axis by axis it would seem to touch only column 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from translator.diagnostics import LegalityError
from translator.driver import translate_text

SPILL = """\
subroutine sp(m, a)
  implicit none
  integer, intent(in) :: m
  real(8), intent(inout) :: a(m, 4)
  integer :: i
  !$translate kernel sp_k
PRAGMA
  do i = 1, m
     a(i + 1, 1) = a(i, 2) + 1
     a(i, 3) = a(i, 3) + 1
     a(i, 4) = a(i, 4) + 1
     a(i, 3) = a(i, 3) + 2
     a(i, 4) = a(i, 4) + 2
  end do
  !$translate end kernel
end subroutine sp
"""


def _same_array(count: int, extra: str = "") -> str:
    body = "\n".join(f"     a(i, {k}) = {k}*a(i, {k}) + 1" for k in range(1, count + 1))
    return f"""\
subroutine same(m, a)
  implicit none
  integer, intent(in) :: m
  real(8), intent(inout) :: a(m, {count})
  integer :: i
  !$translate kernel same_k
  do i = 1, m
{body}
{extra}  end do
  !$translate end kernel
end subroutine same

program main
  implicit none
  integer, parameter :: m = 37
  real(8) :: a(m, {count})
  integer :: i, k
  do k = 1, {count}
     do i = 1, m
        a(i, k) = i + 0.5d0 * k
     end do
  end do
  call same(m, a)
  print '(4es25.17)', a
end program main
"""


def test_spilling_access_in_a_large_group_is_refused() -> None:
    with pytest.raises(LegalityError) as err:
        translate_text("sp.f90", SPILL.replace("PRAGMA", '  !$translate tag_inames("i:g.0")'))
    assert "compared by linear address" in err.value.message
    assert err.value.span.line == 9


def test_spilling_access_keeps_the_automatic_mapping_sequential() -> None:
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = translate_text("sp.f90", SPILL.replace("PRAGMA\n", ""))
    assert any("runs as a single work item" in str(w.message) for w in caught)
    assert "get_group_id" not in result.outputs["sp.cl"]


def test_many_statements_on_one_array_stay_parallel_and_match(tmp_path: Path) -> None:
    src = tmp_path / "same.f90"
    src.write_text(_same_array(40))
    check_sample(src, tmp_path)
    result = translate_text("same.f90", _same_array(40))
    assert "get_group_id" in result.outputs["same.cl"]


def test_a_racing_bucket_reports_the_first_racing_pair() -> None:
    """Every iteration writes a(1, 2) too: the bucket of column 2 races, and the error is
    that of the first racing pair in statement order (the write of a(i, 2))."""
    text = _same_array(12, extra="     a(1, 2) = a(i, 2)\n").replace(
        "  !$translate kernel same_k\n",
        '  !$translate kernel same_k\n  !$translate tag_inames("i:g.0")\n')
    with pytest.raises(LegalityError) as err:
        translate_text("same.f90", text)
    assert "mapping i to g.0 races" in err.value.message
    assert err.value.span.line == 10         # a(i, 2) = 2*a(i, 2) + 1
