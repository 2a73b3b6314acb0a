"""A region that reads the element before the one a pointer points to (h64's GPU hunt):
``f(n, a + 1)`` with ``y[i - 1]`` at ``i = 0`` is legal C (it reads ``a[0]``), but the region
moves the pointer's elements from the one it points to on, so the kernel read the memory before
its buffer: exit 0 and other numbers, on PoCL as on the GPU (``bench/h64_hunt/ptr_before.c``).
Such a region is now refused at the access with what to write; the same loop over a pointer
to the first element it uses matches the original."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import (REPO, build_original, build_translated, check_sample,
                               compare_outputs, run, sample_options)
from translator.driver import translate_text

PROGRAM = """\
#include <stdio.h>
static void f(int n, double *restrict y)
{
#pragma translate kernel f
    for (int i = 0; i < n; i++)
        y[n + i] = y[i - 1] * 0.5;
#pragma translate end kernel
}
static void g(int n, double *restrict y)
{
#pragma translate kernel g
    for (int i = 0; i < n; i++)
        y[n + 1 + i] = y[i] * 0.5;
#pragma translate end kernel
}
int main(void)
{
    static double a[2001];
    for (int i = 0; i < 2001; i++) a[i] = i + 1;
    CALL;
    double s = 0;
    for (int i = 0; i < 2001; i++) s += a[i] * (i % 7 + 1);
    printf("%.17g %.17g\\n", s, a[1001]);
    return 0;
}
"""


def test_reading_before_the_pointer_is_refused_at_the_access(tmp_path: Path) -> None:
    src = tmp_path / "before.c"
    src.write_text(PROGRAM.replace("CALL", "f(1000, a + 1)"))
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert (f"{src}:6:9: error: y[i - 1] reaches index -1 at i=0 when n=1: the loop reads "
            "before the first element of 'y', which has no declared extent: the translator "
            "moves a pointer's elements from the one it points to on; pass a pointer to the "
            "first element the loop uses") in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_pointer_to_the_first_element_used_matches(tmp_path: Path) -> None:
    src = tmp_path / "first.c"
    src.write_text(PROGRAM.replace("CALL", "g(1000, a)")
                   .replace("#pragma translate kernel f", "")
                   .replace("#pragma translate end kernel\n}\nstatic void g",
                            "}\nstatic void g", 1))
    check_sample(src, tmp_path)


# -- the parametric case: ``y[i - k]`` reads before the pointer's element only where k > 0 -----
#: A region over pointers (or array parameters of unknown first extent) that reaches before
#: the element passed for some values of a parameter: the kernel assumes the convex condition
#: that keeps it at or after that element (``k <= 0``) and the glue stops a call that breaks
#: it; before, ``f(n, 1, a + 1, b)`` ran to exit 0 with the memory before the buffer read.
PARAMETRIC = """\
#include <stdio.h>
#include <stdlib.h>
CALLEE
static void f(int n, int m, int k, PARAMS)
{
PRAGMA
    for (int i = 0; i < n; i++)
        BODY
END
}
int main(int argc, char **argv)
{
    static double a[60][20], b[60][20];
    int k = atoi(argv[1]);
    for (int i = 0; i < 60; i++)
        for (int j = 0; j < 20; j++) { a[i][j] = i * 20 + j + 1; b[i][j] = 0.5 * j - i; }
    CALL;
    double s = 0;
    for (int i = 0; i < 60; i++)
        for (int j = 0; j < 20; j++) s += (a[i][j] + 3 * b[i][j]) * ((i * 20 + j) % 7 + 1);
    printf("%.17g %.17g %.17g\\n", s, a[0][0], b[0][0]);
    return 0;
}
"""
FLAT = "double *restrict y, double *restrict x"
SHAPES = {
    "read": (FLAT, "x[i] = y[i - k] * 0.5;", "f(400, 20, k, &a[0][0] + 21, &b[0][0])", ""),
    "write": (FLAT, "y[i - k] = x[i] * 0.5;", "f(400, 20, k, &a[0][0] + 21, &b[0][0])", ""),
    "rows": ("double (*restrict y)[m], double *restrict x",
             "for (int j = 0; j < m; j++) x[i * m + j] = y[i - k][j] * 0.5;",
             "f(40, 20, k, &a[1], &b[0][0])", ""),
    "array_rows": ("double y[restrict][m], double *restrict x",
                   "for (int j = 0; j < m; j++) y[i - k][j] = x[i * m + j] + 1.0;",
                   "f(40, 20, k, &a[1], &b[0][0])", ""),
    "inlined": (FLAT, "g(i, k, y, x);", "f(400, 20, k, &a[0][0] + 21, &b[0][0])",
                "static void g(int i, int k, double *y, double *x) { x[i] = y[i - k] * 0.5; }"),
}


def _parametric(shape: str, openmp: bool = False) -> str:
    params, body, call, callee = SHAPES[shape]
    pragma, end = ("#pragma omp parallel for", "") if openmp else (
        "#pragma translate kernel f", "#pragma translate end kernel")
    return (PARAMETRIC.replace("CALLEE", callee).replace("PARAMS", params)
            .replace("PRAGMA", pragma).replace("BODY", body).replace("END", end)
            .replace("CALL", call))


def _build_both(src: Path, work: Path, extra: tuple[str, ...] = ()) -> tuple[Path, Path]:
    opts = sample_options(src)
    return build_original(src, work, opts), build_translated(src, work, opts, extra)


@pytest.mark.parametrize("shape,openmp", [(s, False) for s in SHAPES] + [("read", True)])
def test_before_the_pointer_for_some_values_is_assumed_against(tmp_path: Path, shape: str,
                                                                openmp: bool) -> None:
    src = tmp_path / "param.c"
    src.write_text(_parametric(shape, openmp))
    orig, tran = _build_both(src, tmp_path, ("--directives", "openmp") if openmp else ())
    for k in ("0", "-1"):
        expected = run([str(orig), k], tmp_path)
        actual = run([str(tran), k], tmp_path, env={"TRANSLATE_DEVICE": "cpu"})
        compare_outputs(expected, actual, 0.0)
    proc = subprocess.run([str(tran), "1"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"}, timeout=300)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert (f"{src}:6: error: translate runtime: region 'f{'_0' if openmp else ''}' was "
            "generated assuming k <= 0, but k = 1") in proc.stderr, proc.stderr


NOT_CONVEX = """\
#include <stdio.h>
static void f(int n, int m, int p, int k, double *restrict y, double *restrict x)
{
#pragma translate kernel f
ASSUME
    for (int i = m; i < n; i++)
        if (i >= p)
            x[i] = y[i - k] * 0.5;
#pragma translate end kernel
}
int main(void)
{
    static double a[2001], b[2001];
    for (int i = 0; i < 2001; i++) a[i] = i + 1;
    f(1000, 3, 5, 1, a + 1, b);
    double s = 0;
    for (int i = 0; i < 2001; i++) s += b[i] * (i % 7 + 1);
    printf("%.17g %.17g\\n", s, b[3]);
    return 0;
}
"""


def test_before_the_pointer_for_values_no_convex_condition_excludes(tmp_path: Path) -> None:
    """``x[i]`` from ``i = max(m, p)`` stays at or after element 0 where ``m >= 0 or
    p >= 0``: not one convex condition, so the region is refused at the access, with what
    to write; an ``assume`` of the values the region runs with lets it through."""
    src = tmp_path / "nonconvex.c"
    src.write_text(NOT_CONVEX.replace("ASSUME\n", ""))
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert (f"{src}:7:13: error: x[i] reaches index -1 at i=-1 when m=-1, n=0, p=-1: with "
            "such values the loop writes before the first element of 'x', which has no "
            "declared extent, and no single condition on the parameters rules them out: the "
            "translator moves a pointer's elements from the one it points to on; pass a "
            "pointer to the first element the loop uses, or state the values the region runs "
            "with in an assume(...)") in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()
    src.write_text(NOT_CONVEX.replace("ASSUME", '#pragma translate assume("m >= 0 and k <= m")'))
    check_sample(src, tmp_path)


LEGACY_DUMMY = """\
subroutine f(n, k, y, x)
  integer, intent(in) :: n, k
  real(8), intent(in) :: y(1)
  real(8), intent(inout) :: x(n)
  integer :: i
  !$translate kernel f
  do i = 1, n
     x(i) = y(i - k) * 0.5d0
  end do
  !$translate end kernel
end subroutine

program main
  real(8) :: a(2001), b(1000)
  integer :: i, k
  character(len=8) :: arg
  call get_command_argument(1, arg)
  read (arg, *) k
  do i = 1, 2001
     a(i) = i
  end do
  b = 0
  call f(1000, k, a(2), b)
  print *, sum(b * [(mod(i, 7) + 1, i = 1, 1000)]), b(1), b(1000)
end program
"""


@pytest.mark.parametrize("dummy", ["y(1)", "y(*)"])
def test_fortran_dummy_read_below_its_first_element_for_some_values(tmp_path: Path,
                                                                    dummy: str) -> None:
    """A legacy ``y(1)`` or ``y(*)`` dummy read at ``y(i - k)`` from ``i = 1``: the kernel
    assumes ``k <= 0`` (before, k = 1 read before the buffer: other numbers, exit 0); and
    ``y(1)``'s transfer covers the elements used, up to ``y(n - k)`` (before, an extent that
    used ``k``, a scalar only the subscript reads, was given up for the declared 1: other
    numbers for every k)."""
    src = tmp_path / "legacy.f90"
    src.write_text(LEGACY_DUMMY.replace("y(1)", dummy))
    orig, tran = _build_both(src, tmp_path)
    for k in ("0", "-1"):
        expected = run([str(orig), k], tmp_path)
        actual = run([str(tran), k], tmp_path, env={"TRANSLATE_DEVICE": "cpu"})
        compare_outputs(expected, actual, 0.0)
    proc = subprocess.run([str(tran), "1"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "TRANSLATE_DEVICE": "cpu"}, timeout=300)
    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert (f"{src}:6: error: translate runtime: region 'f' was generated assuming k <= 0, "
            "but k = 1") in proc.stderr, proc.stderr


TWO_REGIONS = """\
void f(int n, int k, double *restrict y, double *restrict z)
{
#pragma translate kernel f1
    for (int i = 0; i < n; i++)
        z[i] = y[i - k] * 0.5;
#pragma translate end kernel
#pragma translate kernel f2
    for (int i = 0; i < n; i++)
        z[i] = y[i - k] * 0.5;
#pragma translate end kernel
}
"""


def test_regions_of_one_shape_each_get_the_assumption() -> None:
    """The answer is remembered by kernel shape (`bounds._FIRSTS`): the second region, the
    same loop, gets the same checked assumption as the first."""
    result = translate_text("two.c", TWO_REGIONS)
    glue = "".join(text for name, text in result.outputs.items() if name.endswith(".host.c"))
    for region in ("f1", "f2"):
        assert f"region '{region}' was generated assuming k <= 0" in glue, glue
