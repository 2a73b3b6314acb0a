"""Subscripts that leave their declared extent (issue 20, item 1): ``b[i][j-1]`` at ``j = 0``
is ``b[i-1][m-1]``, written by another work item.  An explicit mapping is refused with a
witness naming the access and the index; the automatic mapping keeps such a loop sequential
and the program, run on PoCL, prints what the original prints; in-bounds neighbours (halos
inside the extent, extents proved by a checked assumption) stay parallel."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, build_translated, check_sample, sample_options
from translator.diagnostics import LegalityError
from translator.driver import translate_text

C_SPILL = """\
#include <stdio.h>
void f(int n, int m, double b[n][m]) {
#pragma translate kernel k
PRAGMA
  for (int i = I0; i < n; i++)
    for (int j = J0; j < m; j++)
      b[i][j] = b[i][j-1] + 1.0;
#pragma translate end kernel
}
int main(void) {
  static double b[256][7];
  for (int i = 0; i < 256; i++) for (int j = 0; j < 7; j++) b[i][j] = i * 100 + j;
  f(256, 7, b);
  double s = 0;
  for (int i = 0; i < 256; i++) for (int j = 0; j < 7; j++) s += b[i][j] * (i % 13 + j + 1);
  printf("%.6f %.6f %.6f\\n", s, b[5][0], b[255][6]);
  return 0;
}
"""

F_SPILL = """\
subroutine f(n, m, b)
  integer, intent(in) :: n, m
  real(8), intent(inout) :: b(n, m)
  integer :: i, j
  !$translate kernel k
PRAGMA
  do j = J0, m
    do i = I0, n
      b(i, j) = b(i - 1, j) + 1.0d0
    end do
  end do
  !$translate end kernel
end subroutine
program p
  integer, parameter :: n = 7, m = 256
  real(8) :: b(n, m)
  integer :: i, j
  do j = 1, m
    do i = 1, n
      b(i, j) = i * 100 + j
    end do
  end do
  call f(n, m, b)
  print '(3(1x, f20.6))', sum(b * reshape([(mod(i, 13) + 1, i = 1, n*m)], [n, m])), &
      b(1, 5), b(n, m)
end program
"""


def _c(pragma: str = "", i0: int = 1, j0: int = 0) -> str:
    return C_SPILL.replace("PRAGMA", pragma).replace("I0", str(i0)).replace("J0", str(j0))


def _f(pragma: str = "", j0: int = 1, i0: int = 1) -> str:
    return F_SPILL.replace("PRAGMA", pragma).replace("I0", str(i0)).replace("J0", str(j0))


def test_c_explicit_mapping_is_refused_with_the_spill() -> None:
    with pytest.raises(LegalityError) as info:
        translate_text("spill.c", _c('#pragma translate tag_inames("i:g.0")'))
    err = info.value
    assert err.message.startswith("mapping i to g.0 races (b[i][j - 1] reaches index -1 of "
                                  "dimension 2 (extent 0..m-1) at i=1, j=0 when "), err.message
    assert "iteration i=1, j=0 writes b[1, 0], iteration i=2, j=0 reads b[2, -1]" \
        in err.message
    assert (err.span.file, err.span.line, err.span.col) == ("spill.c", 7, 7)


def test_fortran_explicit_mapping_is_refused_with_the_spill() -> None:
    with pytest.raises(LegalityError) as info:
        translate_text("spill.f90", _f('  !$translate tag_inames("j:g.0")'))
    err = info.value
    assert err.message.startswith(
        "mapping j to g.0 races (b[i - 2, j - 1] (0-based) reaches index -1 of dimension 1 "
        "(extent 0..n-1) at i=1, j=1 when "), err.message
    assert (err.span.file, err.span.line, err.span.col) == ("spill.f90", 9, 7)


ASSUMED_SHAPE_RACE = """\
subroutine f(v, n)
  integer, intent(in) :: n
  real(8), intent(inout) :: v(:, :)
  integer :: t, i
  !$translate kernel k
  !$translate tag_inames("t:g.0")
  do t = 1, n
    do i = 2, size(v, 1)
      v(i, t) = v(i - 1, t + 1) + 1
    end do
  end do
  !$translate end kernel
end subroutine
"""


def test_a_race_witness_names_the_extent_as_the_source_writes_it() -> None:
    """The witness's parameter values name ``size(v, 1)``, not the value the frontend made
    up for it (``_tr_size_v_1``)."""
    with pytest.raises(LegalityError) as info:
        translate_text("race.f90", ASSUMED_SHAPE_RACE)
    text = info.value.render()
    assert "for example when size(v, 1)=3, n=2" in text, text
    assert "_tr_" not in text, text


def _run_both(tmp_path: Path, name: str, text: str) -> str:
    src = tmp_path / name
    src.write_text(text)
    return check_sample(src, tmp_path)


@pytest.mark.parametrize("name, text", [("spill.c", _c()), ("spill.f90", _f())])
def test_automatic_mapping_keeps_the_spilling_loop_sequential(tmp_path, name, text) -> None:
    report = _report(tmp_path, name, text)
    assert "mapping: sequential (one work item): mapping " in report, report
    assert "reaches index -1" in report
    _run_both(tmp_path, name, text)


def _report(tmp_path: Path, name: str, text: str) -> str:
    src = tmp_path / ("r_" + name)
    src.write_text(text)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "rep"), "--report=-"],
                          capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("name, text, tag", [
    ("halo.c", _c('#pragma translate tag_inames("i:g.0")', 1, 1), "i"),
    ("halo.f90", _f('  !$translate tag_inames("j:g.0")', 1, 2), "j")])
def test_in_bounds_neighbour_stays_parallel(tmp_path, name, text, tag) -> None:
    """The same statement over a loop that starts one later stays inside every extent."""
    report = _report(tmp_path, name, text)
    assert f"  {tag}  g.0  legal" in report.replace("    ", "  "), report
    assert "in bounds (proved): b\n" in report
    _run_both(tmp_path, name, text)


CONSTANT_EXTENT = """\
#include <stdio.h>
static double v[40][40];
static void f(int n) {
#pragma translate kernel k
#pragma translate tag_inames("t:g.0")
  for (int t = 0; t < 40; t++)
    for (int i = 0; i < n; i++)
      v[t][i] = t + 2.0 * i;
#pragma translate end kernel
}
int main(int argc, char **argv) {
  f(argc > 1 ? 41 : 40);
  double s = 0;
  for (int t = 0; t < 40; t++) for (int i = 0; i < 40; i++) s += v[t][i] * (i + 1);
  printf("%.3f\\n", s);
  return 0;
}
"""


def test_an_extent_proved_by_a_checked_assumption(tmp_path) -> None:
    """``v[t][i]`` over ``i < n`` of ``double v[40][40]`` is inside for n <= 40: the mapping
    stays parallel and the glue stops a call with n = 41 (it would write v[t+1][0])."""
    src = tmp_path / "const.c"
    src.write_text(CONSTANT_EXTENT)
    check_sample(src, tmp_path)
    exe = build_translated(src, tmp_path, sample_options(src))
    proc = subprocess.run([str(exe), "big"], capture_output=True, text=True,
                          env={"TRANSLATE_DEVICE": "cpu", "PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0
    assert (f"{src}:4: error: translate runtime: region 'k' was generated assuming n <= 40, "
            "but n = 41") in proc.stderr, proc.stderr


ASSUMED_SHAPE_EXTENT = """\
module m2
contains
subroutine f(v, n)
  integer, intent(in) :: n
  real(8), intent(inout) :: v(:, :)
  integer :: t, i
  !$translate kernel k
  !$translate tag_inames("t:g.0")
  do t = 1, size(v, 2)
    do i = 1, n
      v(i, t) = t + 2.0d0 * i
    end do
  end do
  !$translate end kernel
end subroutine
end module
program p
  use m2
  real(8), allocatable :: v(:, :)
  integer :: n
  n = 40
  if (command_argument_count() > 0) n = 41
  allocate(v(40, 40))
  v = 0
  call f(v, n)
  print *, sum(v)
end program
"""


def test_an_assumption_on_an_assumed_shape_names_the_source_text(tmp_path) -> None:
    """The checked assumption ``n <= size(v, 1)`` reads as the source writes it, in the report
    and in the run-time message: not as the value the frontend made up (``_tr_size_v_1``)."""
    src = tmp_path / "shape.f90"
    src.write_text(ASSUMED_SHAPE_EXTENT)
    check_sample(src, tmp_path)
    report = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "rep"), "--report=-"],
                            capture_output=True, text=True, check=True).stdout
    assert "v: in/out, float64[size(v, 1), size(v, 2)], 8*size(v, 1)*size(v, 2) B" in report
    assert "_tr_" not in report, report
    exe = build_translated(src, tmp_path, sample_options(src))
    proc = subprocess.run([str(exe), "big"], capture_output=True, text=True,
                          env={"TRANSLATE_DEVICE": "cpu", "PATH": "/usr/bin:/bin"})
    assert proc.returncode != 0
    assert (f"{src}:7: error: translate runtime: region 'k' was generated assuming "
            "n <= size(v, 1), but size(v, 1) = 40, n = 41") in proc.stderr, proc.stderr


SMALL_DUMMIES = """\
subroutine g(n, a, c, d)
  integer, intent(in) :: n
  real(8), intent(in) :: a(*)
  real(8), intent(inout) :: c(1), d(n-1)
  integer :: i
  !$translate kernel k2
  do i = 1, n
    c(i) = a(i) + 1
    d(i) = 2 * a(i)
  end do
  !$translate end kernel
end subroutine
program p
  integer, parameter :: n = 300
  real(8) :: a(n), c(n), d(n)
  integer :: i
  do i = 1, n
    a(i) = i * 0.5d0
  end do
  c = 0
  d = 0
  call g(n, a, c, d)
  print '(3(1x, f20.6))', sum(c), sum(d), c(n) + d(n)
end program
"""


def test_fortran_dummies_declared_smaller_than_used(tmp_path) -> None:
    """``c(1)`` and ``d(n-1)`` indexed to n (the legacy ``a(*)`` idiom): the slowest axis
    may leave its extent (the loop stays parallel), and the transfer covers what the region
    touches (before: one element of c was copied and the device wrote past it)."""
    report = _report(tmp_path, "dummies.f90", SMALL_DUMMIES)
    assert "c: in/out, float64[max(1, n)]" in report, report
    assert "d: out, float64[max(n + -1, n)]" in report, report
    assert "i_outer  g.0  legal" in report
    _run_both(tmp_path, "dummies.f90", SMALL_DUMMIES)


NESTED_OUTSIDE = """\
void f(int n, double x[512], double y[512])
{
#pragma translate kernel k
#pragma translate tag_inames("k:g.0")
  for (int j = 1; j < n; j++) {
    if (j > 1) x[j] = j;
    for (int k = 4*j; k < 4*j + 4; k++)
      y[k] = x[j - 1];
  }
#pragma translate end kernel
}
"""


def test_statement_outside_a_mapped_loop_whose_bounds_name_its_loop() -> None:
    """The first work item (k = 4) runs ``x[j] = j`` for every j, not only for j = 1 where
    k = 4 lies in the loop's range: it races with the work items reading x[j-1] later.  (The
    whole region is refused as one kernel; the translator then runs j as a host loop.)"""
    from tests.legality.random_regions import verdict
    kind, message, _ = verdict(NESTED_OUTSIDE)
    assert kind == "illegal"
    assert message.startswith("mapping k to g.0 races: iteration j=2, k=4 writes x[2], "
                              "iteration j=3, k="), message
