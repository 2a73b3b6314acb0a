"""Programs the end-to-end random differential fuzzer (bench/e2e_fuzz.py) found wrong,
minimised: each is built as written and as translated, run on the CPU OpenCL device, and the
outputs must be identical (tests/e2e/fuzz_regressions/)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import TRANSLATE, check_sample, run

PROGRAMS = Path(__file__).parent / "fuzz_regressions"


@pytest.mark.parametrize("name", ["strided_ilp.c", "strided_ilp.f90"])
def test_strided_loop_split_with_ilp_translates_and_matches(tmp_path: Path, name: str) -> None:
    """Before: the translator died of SIGSEGV in isl (a gist of a guard whose context pins
    the outer iname); after: it translates and prints what the original prints."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == 24


@pytest.mark.parametrize("name, lines", [("prefetch_many_reads.c", 24 * 24),
                                         ("prefetch_slow_hull.f90", 80)])
def test_prefetch_bounding_box_is_quick_and_matches(tmp_path: Path, name: str,
                                                     lines: int) -> None:
    """Before: the bounding box of a footprint (C: five reads of a 3-D array, 100 pieces;
    Fortran: two reads over a loop counting down by two, few pieces) went to one convex hull
    that isl ran for minutes (translation killed at 60 s).  After: each dimension's own hull
    where the pieces are many or the hull takes over a million isl operations; translated in
    seconds, and the program prints what the original prints."""
    src = PROGRAMS / name
    run([*TRANSLATE, str(src), "-o", str(tmp_path / "first")], tmp_path, timeout=60)
    out = check_sample(src, tmp_path)
    assert out.count("\n") == lines


@pytest.mark.parametrize("name", ["triangular_prefetch.c", "triangular_prefetch.f90"])
def test_barrier_loop_bounded_by_split_iname_runs_alike_in_every_work_item(
        tmp_path: Path, name: str) -> None:
    """Before (C): the loop holding the prefetch's barriers ran ``k <= i_inner`` times in each
    work item (its bound named the split loop's local iname as a parameter of its domain):
    wrong numbers or a crash on PoCL.  After: it runs over the whole group's range and the
    statement keeps ``k <= i_inner`` as its guard.  (The Fortran program, whose nest has the
    loops in one domain, was already right: the neighbour stays checked.)"""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out


@pytest.mark.parametrize("name", ["strided_condition_reads.f90", "strided_condition_reads.c"])
def test_extent_of_reads_over_a_strided_loop_translates_and_matches(
        tmp_path: Path, name: str) -> None:
    """Before (Fortran): the extent the reads of a dummy array need over ``do i = n, 0, -2``
    was a maximum whose pieces held an integer division without an expression, and printing
    its condition raised inside isl: exit 2.  After: the divisions are made explicit, and the
    program translates and matches.  (The C program was already right.)"""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == 24


@pytest.mark.parametrize("name", ["empty_group_loop.f90", "empty_group_loop.c"])
def test_statement_after_a_group_loop_without_values_still_runs(
        tmp_path: Path, name: str) -> None:
    """Before: a kernel holding a group-mapped loop and a statement after it had as many
    groups as the loop has values; where it has none (``do j = 0, i`` at ``i = -1``) the
    kernel was not launched and the statement's update was lost (a silent wrong result, in
    both languages).  After: such a kernel has at least one group."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == 24


@pytest.mark.parametrize("name, line, col", [("unrolled_around_loop.f90", 15, 9),
                                             ("unrolled_around_loop.c", 9, 7)])
def test_unrolled_copies_that_would_run_interleaved_with_a_loop_are_refused(
        tmp_path: Path, name: str, line: int, col: int) -> None:
    """Before: exit 0, and the program printed other numbers (the unrolled copies of i_inner
    were scheduled inside the loop over j).  After: exit 1 at the write, with the race between
    two copies as witness."""
    proc = subprocess.run([*TRANSLATE, str(PROGRAMS / name), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"{name}:{line}:{col}: error: mapping i_inner to unr races: iteration i_inner=1, " \
           "i_outer=1, j=0 writes a1[2], iteration i_inner=0, i_outer=1, j=0 writes a1[2]" \
           in proc.stderr


def test_prefetch_whose_bounding_box_is_too_complex_is_refused(tmp_path: Path) -> None:
    """Before: even each dimension's hull of the bounding box ran for minutes in isl
    (translation killed at 60 s).  After: exit 1 at the add_prefetch pragma."""
    name = "prefetch_hull_too_complex.c"
    proc = subprocess.run([*TRANSLATE, str(PROGRAMS / name), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"{name}:10:19: error: add_prefetch: cannot compute the footprint of 'b0': its " \
           "bounding box is too complex for isl (more than a million operations); prefetch " \
           "fewer reads, or a simpler nest" in proc.stderr


@pytest.mark.parametrize("name", ["negated_reversed.c", "negated_reversed.f90"])
def test_negation_of_a_reversed_loop_variable(tmp_path: Path, name: str) -> None:
    """Before (C, c:359): ``b[-j + i]`` over ``for (j = 0; j >= -3; j--)``, the loop run
    upwards over the negation of `j`, was printed ``b[--j + i]``: C's decrement, so the loop
    never ended and the kernel read far outside ``b`` (the program died of SIGSEGV).  After:
    ``-(-j)``, and the program prints what the original prints.  (The Fortran frontend folds
    the double negation: the neighbour stays checked.)"""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == 32


@pytest.mark.parametrize("name, line, col, first, second",
                         [("reduction_interchange.f90", 17, 7, "i_inner=4, i_outer=0, j=1",
                           "i_inner=1, i_outer=0"),
                          ("reduction_interchange.c", 14, 7, "i_inner=7, i_outer=0, j=0",
                           "i_inner=0, i_outer=0")])
def test_reduction_that_would_distribute_its_split_loop_is_refused(
        tmp_path: Path, name: str, line: int, col: int, first: str, second: str) -> None:
    """Before (fortran:1098 of the second round): exit 0 and other numbers: the reduction
    over the sequential part of ``i`` (split, outer part on g.0) inside loop j made code
    generation put j around that part for every statement, so ``a(j) = ...`` ran
    interchanged and ``a(i) = a(i) + 100`` in a loop of its own after it.  After: exit 1 at
    the write, with the two writes of one element whose order would change."""
    proc = subprocess.run([*TRANSLATE, str(PROGRAMS / name), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"{name}:{line}:{col}: error: distributing loop i_inner around loop j (the " \
           "reduction of statement" in proc.stderr
    assert f"reorders a dependence: iteration {first} writes a[0], iteration {second} " \
           "writes a[0]" in proc.stderr


def test_reduction_over_a_split_loop_with_independent_statements_still_translates(
        tmp_path: Path) -> None:
    """The neighbour of the refusal above: the statements beside the reduction touch only
    their own iteration's elements, so the interchange and distribution are legal; the
    program translates and prints what the original prints (passed before as well)."""
    out = check_sample(PROGRAMS / "reduction_split_ok.c", tmp_path)
    assert out.count("\n") == 65


def test_statements_on_either_side_of_the_reduction_loop_are_checked(tmp_path: Path) -> None:
    """Before: exit 0 and other numbers: ``a[i] = 10 * i`` before loop j and ``c[i] = d[0][i]
    + a[i + 1]`` after it ran in two loops over i_inner (j, holding the reduction and a
    statement reading a[i], around the reduction's part of i), so c[i] read a[i + 1] as the
    next iteration wrote it.  After: exit 1 at the write, with the two iterations."""
    name = "reduction_sides.c"
    proc = subprocess.run([*TRANSLATE, str(PROGRAMS / name), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"{name}:12:5: error: distributing loop i_inner around loop j" in proc.stderr
    assert "reorders a dependence: iteration i_inner=1, i_outer=0 writes a[1], iteration " \
           "i_inner=0, i_outer=0 reads a[1]" in proc.stderr


def test_prefetch_beside_a_group_reduction_read_in_the_region(tmp_path: Path) -> None:
    """Before: exit 0 and other values of a1 (seen on PoCL): the prefetch's fill rule, last
    in the kernel's statement list, was launched after the kernel that reads its tile
    (`translator/split.py` cut the region in list order).  After: groups are cut in an order
    that respects dependences, and the program prints what the original prints."""
    src = PROGRAMS / "prefetch_group_reduction.c"
    out = check_sample(src, tmp_path)
    assert out.count("\n") == 577


def test_prefetch_beside_a_group_reduction_in_a_fortran_module(tmp_path: Path) -> None:
    """The same shape in Fortran, inside a module (a neighbour: it matched before the split
    order fix as well, and must keep matching)."""
    out = check_sample(PROGRAMS / "prefetch_group_reduction.f90", tmp_path)
    assert out.count("\n") == 145
