"""loopy 2025.2's Fortran tests and examples as pragma programs (`tests.loopy_compat.cases`):
each is built with gfortran as written and as translated, run on the CPU OpenCL device, and
the printed results must agree."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import check_sample
from tests.loopy_compat.cases import PRAGMA_CASES

#: Expected to fail in loopy 2025.2 as well.
LOOPY_XFAIL = {"batched_sparse"}


def _param(name: str):
    if name in LOOPY_XFAIL:
        return pytest.param(name, marks=pytest.mark.xfail(reason="an xfail in loopy too",
                                                          strict=False))
    return name


@pytest.mark.parametrize("name", [_param(n) for n in PRAGMA_CASES])
def test_pragma_case(name: str, tmp_path: Path) -> None:
    src = tmp_path / f"{name}.f90"
    src.write_text(PRAGMA_CASES[name])
    check_sample(src, tmp_path)


def test_local_work_array_reaches_local_memory() -> None:
    """volumeKernel's procedure-local F is a temporary for set_temporary_address_space: one
    copy per work group in local memory, with barriers between its writes and reads."""
    from tests.loopy_compat.cases import EXAMPLE_VOLUME
    from translator.driver import translate_text
    cl = translate_text("vk.f90", EXAMPLE_VOLUME).outputs["vk.cl"]
    assert "__local float f[375];" in cl
    assert "barrier(CLK_LOCAL_MEM_FENCE);  /* f written by" in cl


def test_dummy_array_is_no_temporary() -> None:
    """A dummy argument is the caller's memory: it stays an argument, and the pragma says so
    at its line."""
    from translator.diagnostics import TransformError
    from translator.driver import translate_text
    src = PRAGMA_CASES["fill"].replace(
        '  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")\n',
        '  !$translate set_temporary_address_space("out", "local")\n')
    with pytest.raises(TransformError) as info:
        translate_text("fill.f90", src)
    assert "'out' is not a temporary of kernel 'fill_k'" in info.value.message
    assert info.value.span.line == 6


def test_c_sparse_row_length_bound(tmp_path: Path) -> None:
    from tests.loopy_compat.cases import C_SPARSE
    src = tmp_path / "sparse.c"
    src.write_text(C_SPARSE)
    check_sample(src, tmp_path)


@pytest.mark.parametrize("language", ["fortran", "c"])
def test_bound_scalar_written_in_the_loop_is_refused(language: str) -> None:
    """A computed bound is copied on entry; C re-reads its condition, so a scalar the loop
    itself writes stays refused there (Fortran fixes the trip count on entry: allowed)."""
    from tests.loopy_compat.cases import C_SPARSE
    from translator.diagnostics import FrontendError
    from translator.driver import translate_text
    if language == "fortran":
        src = PRAGMA_CASES["example_sparse"].replace(
            "    y(i) = rowsum\n", "    y(i) = rowsum + length\n").replace(
            "        x(colindices(rowstart+j-1))*values(rowstart+j-1)\n",
            "        x(colindices(rowstart+j-1))*values(rowstart+j-1)\n      length = 0\n")
        assert "__kernel" in translate_text("sparse.f90", src).outputs["sparse.cl"]
        return
    src = C_SPARSE.replace("rowsum += x[colindices[rowstart + j]] * values[rowstart + j];",
                           "{ rowsum += x[colindices[rowstart + j]]; length--; }")
    with pytest.raises(FrontendError) as info:
        translate_text("sparse.c", src)
    assert "the bounds of the loop over 'j' depend on 'length', which the region writes" \
        in info.value.message
    assert info.value.span.line == 10
