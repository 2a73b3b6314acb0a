"""Work the automatic mapper and the bound analysis skip per region (issue 24): a loop that
carries a dependence and accumulates nothing is not split and proved again as a reduction, and
the address of a 1-D array is not searched with isl for leaving an extent it has none of.
Each shortcut gives the answer the full computation gives."""

from __future__ import annotations

import warnings

import pytest

from tests.e2e.harness import REPO
from translator import automap
from translator.analysis import bounds, legality
from translator.analysis.access import kernel_accesses
from translator.driver import frontend_for
from translator.ir.isl_glue import dependences
from translator.pipeline import privatize_arrays

CARRIED = """subroutine s(n, a)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n)
  integer :: i
  !$translate kernel
  do i = 2, n
     a(i) = a(i - 1) + 1.0d0
  end do
  !$translate end kernel
end subroutine s
"""

SUM = """void f(int n, const double *restrict x, int *restrict total)
{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    total[0] += (int) x[i];
#pragma translate end kernel
}
"""


def _kernel(name: str, text: str):
    return privatize_arrays(frontend_for(name).parse(name, text, {}).regions[0].kernel)


def _full_checks(monkeypatch) -> list[str]:
    seen: list[str] = []
    real = legality._check_mappings

    def counted(kernel):
        seen.append(",".join(sorted(legality.parallel_inames(kernel))))
        return real(kernel)

    monkeypatch.setattr(legality, "_check_mappings", counted)
    return seen


def test_carried_dependence_is_not_proved_again_as_a_reduction(monkeypatch) -> None:
    """Before: the loop alone (refused), then the split probe of `reduction_band` with the
    outer loop on the groups and sequential, each proved in full (three proofs); now the
    probes recognise no accumulation and are not proved.  The verdict is the same."""
    seen = _full_checks(monkeypatch)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        _, mapping = automap.auto_map(_kernel("s.f90", CARRIED))
    assert seen == ["i"], seen
    assert "races" in mapping.reason and "a(i - 1)" not in mapping.pragmas


def test_an_accumulation_is_still_mapped_as_a_reduction(monkeypatch) -> None:
    seen = _full_checks(monkeypatch)
    _, mapping = automap.auto_map(_kernel("f.c", SUM))
    assert mapping.pragmas == ('split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")',)
    # the loop alone (refused), the reduction probe, the mapped kernel
    assert seen == ["i", "i_inner,i_outer", "i_inner,i_outer"], seen


def _instance_sets(monkeypatch) -> list[int]:
    seen: list[int] = []
    real = dependences._instance_set

    def counted(*args):
        seen.append(1)
        return real(*args)

    monkeypatch.setattr(dependences, "_instance_set", counted)
    return seen


@pytest.mark.parametrize("sample", ["fortran/saxpy.f90", "c/saxpy.c", "fortran/jacobi2d.f90",
                                    "c/jacobi2d.c", "c/gemm.c", "fortran/legacy.f"])
def test_addresses_without_axes_need_no_search(monkeypatch, sample: str) -> None:
    """`address_spill` of every access of the samples' regions equals `_search` (the isl
    search it replaces for 1-D addresses), and builds no instance set for a 1-D address."""
    path = REPO / "samples" / sample
    regions = frontend_for(str(path)).parse(str(path), path.read_text(), {}).regions
    for region in regions:
        kernel = region.kernel
        for acc in kernel_accesses(kernel):
            shape = bounds.layout(kernel, acc.variable)
            if acc.index is None or shape is None or len(shape[0]) != len(acc.index):
                continue
            axes = bounds._address_axes(shape[1])
            seen = _instance_sets(monkeypatch)
            fast = bounds.address_spill(kernel, acc)
            if not axes:
                assert not seen
            monkeypatch.undo()
            assert fast == bounds._search(kernel, acc, axes)


def test_one_nest_is_not_estimated_for_launching_apart(monkeypatch) -> None:
    """`_apart_may_pay` needs two large nests: a region of one loop nest is not estimated
    (before: one isl point count per region); a region of two still is."""
    from translator import launch_cost, pipeline, split
    seen: list[int] = []
    real = launch_cost.iterations

    def counted(*args):
        seen.append(1)
        return real(*args)

    monkeypatch.setattr(split, "iterations", counted)
    assert not pipeline._apart_may_pay(_kernel("f.c", SUM))
    assert not seen
    two = SUM.replace("#pragma translate end", "  for (int j = 0; j < n; j++)\n"
                      "    total[1] += (int) x[j];\n#pragma translate end")
    pipeline._apart_may_pay(_kernel("f.c", two))
    assert len(seen) == 2
