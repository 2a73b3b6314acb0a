"""Programs the end-to-end random differential fuzzer's third round (h84) found refused for a
wrong reason or computed wrongly, minimised: each is built as written and as translated, run
on the CPU OpenCL device, and the outputs must be identical (tests/e2e/fuzz_regressions/)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import TRANSLATE, check_sample

PROGRAMS = Path(__file__).parent / "fuzz_regressions"


@pytest.mark.parametrize("name", ["empty_inner_loop.c", "empty_inner_loop.f90"])
def test_loops_that_never_run_translate_and_match(tmp_path: Path, name: str) -> None:
    """Before: exit 1, "loop over 'j' has no lower bound" at the kernel line (an inner loop
    empty for every outer value, C's ``for (j = 0; j < 0; j++)``, a split loop that never
    runs), and Fortran's ``do j = 1, 0`` refused as a loop that never runs.  After: the
    statements of such loops are left out (they never run); the program translates and
    prints what the original prints."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == 40


@pytest.mark.parametrize("name", ["reduction_reads_loop_writes.c",
                                  "reduction_reads_loop_writes.f90"])
def test_reduction_reading_what_its_split_loop_wrote_first_translates(
        tmp_path: Path, name: str) -> None:
    """Before: refused, "mapping i_inner to l.0 races ... writes s" (the loop split with only
    its inner part on l.0, whose sequential part joins the reduction, wrote what the term
    reads: ``a[i] = ..; s += a[i]``).  After: each element the term reads is written before
    the read in its own iteration and never after it, so the accumulation may move after
    the loop; the program translates and prints what the original prints."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") in (42, 44)


#: A caller for reduction_reads_before_write.c: three sizes, the sums and the rewritten array.
_READ_FIRST_MAIN = """
#include <stdio.h>
int main(void)
{
  int a[40], b[40];
  long res[1];
  for (int k = 0; k < 40; k++) { a[k] = 3 * k - 50 + (k % 7) * 11; b[k] = k * k - 17; }
  for (int n = 1; n <= 40; n += 13) {
    reduce_then_write(n, b, a, res);
    printf("%d %ld", n, res[0]);
    for (int k = 0; k < 40; k += 5) printf(" %d", a[k]);
    printf("\\n");
  }
  return 0;
}
"""


def test_reduction_reading_before_its_loop_writes_accumulates_in_place(tmp_path: Path) -> None:
    """The neighbour: ``s += a[i]; a[i] = ..`` reads the element before the write, so the
    accumulation cannot move after the loop (h84: refused, "mapping i_inner to l.0 races ...
    writes s[0]").  Since h87's private accumulators each work item sums in place, before its
    own write, and the partial sums are combined after the loop: it translates and prints
    what the original prints (the old values of `a`, not the new)."""
    src = tmp_path / "read_first.c"
    src.write_text((PROGRAMS / "reduction_reads_before_write.c").read_text() + _READ_FIRST_MAIN)
    out = check_sample(src, tmp_path)
    assert out.count("\n") == 4
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "report"),
                           "--report=-"], capture_output=True, text=True, timeout=120,
                          check=True)
    assert "i_inner  l.0  legal" in proc.stdout and "_tr_acc_s" in proc.stdout


@pytest.mark.parametrize("name, lines", [("two_level_updates.c", 3),
                                         ("two_level_updates.f90", 2)])
def test_accumulator_updated_at_two_loop_levels_translates(
        tmp_path: Path, name: str, lines: int) -> None:
    """Before: refused, "mapping i_inner to l.0 races ... writes s" (``s += b[i]`` in loop i
    and ``s += c[i][j]`` in loop j inside it each saw the other as a use of the
    accumulator).  After: updates of one element by one operation are each a reduction of
    their own (not across work groups: codegen combines a group's part into a destination
    that only its statement updates); the program translates and prints what the original
    prints."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == lines


def test_prefetch_refusal_names_the_read_that_is_not_affine(tmp_path: Path) -> None:
    """Before (fortran:5010): the refusal named the first read that splits into no rows,
    ``b0[2*i + 28]``, which is affine (a wrong reason).  After: it names the modulo read."""
    name = "prefetch_names_the_nonaffine_read.f90"
    proc = subprocess.run([*TRANSLATE, str(PROGRAMS / name), "-o", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"{name}:13:3: error: add_prefetch: cannot compute the footprint of 'b0': its read " \
           "b0[(2*i + -3) % (-3) + 14 + 2] is neither affine nor rows of a parameter " \
           "length" in proc.stderr


@pytest.mark.parametrize("name, lines", [("guarded_int_max.f90", 4), ("guarded_int_max.c", 2)])
def test_guarded_int_maximum_across_groups_builds_and_matches(
        tmp_path: Path, name: str, lines: int) -> None:
    """Before (fortran:5133): the neutral element of an int maximum reduced across work
    groups under an IF, the smallest int32, was printed ``-2147483648L`` (a long), and
    OpenCL's ``max(int, long)`` is ambiguous: the kernel did not build on PoCL.  After:
    ``(-2147483647 - 1)``, an int; the program prints what the original prints."""
    out = check_sample(PROGRAMS / name, tmp_path)
    assert out.count("\n") == lines


def test_host_program_extent_floors_negative_numerators(tmp_path: Path) -> None:
    """Before (fortran:2014 of the second round's features, translated once h84's reductions
    accepted it): the glue of a region cut into launches around a host loop printed the floor
    divisions of a2's extent (``(-m) // 3``) as C's truncating ``-m / 3``; the extent came out
    28 columns instead of 24 and the runtime stopped, finding a2's bytes over a1's.  After:
    printed as the single-kernel glue prints them; the program matches."""
    out = check_sample(PROGRAMS / "host_loop_floor_extent.f90", tmp_path)
    assert out.count("\n") == 349


def test_host_loop_with_a_floor_division_bound_runs(tmp_path: Path) -> None:
    """Before (fortran:6069, with the fix above printed bare): the host loop over ``do i = 1,
    n + 1, 3`` ran while ``i <= n >= 0 ? n / 3 : ...`` (C's precedence), and the program
    crashed in the kernel.  After: the conditional is parenthesised; the program matches."""
    out = check_sample(PROGRAMS / "host_loop_strided.f90", tmp_path)
    assert out.count("\n") == 3477
