"""Reductions over work groups launch a bounded number of groups, each running a grid-stride
loop, instead of one group (and one contended atomic update) per 256 terms (issue 13)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample
from translator.codegen.bounded_groups import MAX_REDUCTION_GROUPS

PROGRAM = """#include <stdio.h>
double dot(int n, const double *restrict a, const double *restrict b)
{
  double s = 0.0;
#pragma translate kernel dotk
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
#pragma translate end kernel
  return s;
}

long isum(int n, const int *restrict a)
{
  long s = 0;
#pragma translate kernel isumk
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    s += a[i];
#pragma translate end kernel
  return s;
}

int imax(int n, const int *restrict a)
{
  int m = -1000000;
#pragma translate kernel imaxk
#pragma translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    m = m > a[i] ? m : a[i];
#pragma translate end kernel
  return m;
}

int main(void)
{
  static double a[600000], b[600000];
  static int c[600000];
  static const int ns[] = {0, 1, 255, 256, 257, 65535, 65536, 65537, 262143, 262144, 262145,
                           300000, 600000};
  for (int i = 0; i < 600000; i++) {
    a[i] = (i % 7) * 0.5;
    b[i] = (i % 5) - 1.0;
    c[i] = (i * 7919) % 100003 - 400;
  }
  for (int t = 0; t < (int) (sizeof ns / sizeof ns[0]); t++)
    printf("n=%d dot=%.17g sum=%ld max=%d\\n", ns[t], dot(ns[t], a, b), isum(ns[t], c),
           imax(ns[t], c));
  return 0;
}
"""


def test_group_reductions_are_bounded_and_right(tmp_path: Path) -> None:
    src = tmp_path / "dots.c"
    src.write_text(PROGRAM)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out"), "--report"],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    grids = [line for line in (proc.stdout + proc.stderr).splitlines() if "launch grid" in line]
    assert len(grids) == 3
    for grid, size in zip(grids, (256, 64, 128)):
        assert f"min({MAX_REDUCTION_GROUPS}, (n + {size - 1}) // {size})" in grid, grid
    device = (tmp_path / "out" / "dots.cl").read_text()
    assert device.count("i_outer_stride") >= 3       # the grid-stride loops
    work = tmp_path / "work"
    work.mkdir()
    out = check_sample(src, work)     # exact: the terms are multiples of 0.5 and integers
    assert "n=600000 dot=899992.5" in out


def test_python_library_sum_over_groups(ctx, queue) -> None:
    import transforms
    import translator
    from translator.codegen.opencl import generate_code

    knl = translator.make_kernel("{[i]: 0<=i<n}", "s[0] = s[0] + sum(i, a[i])")
    knl = transforms.split_iname(knl, "i", 32, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.add_dtypes(knl, {"a": np.int64, "s": np.int64})
    code = generate_code(knl)
    assert "min(1024" in str(code.global_size[0])
    run = translator.compile(knl, ctx)
    for n in (1, 31, 32 * 1024, 32 * 1024 + 5, 100_000):
        a = np.arange(n, dtype=np.int64) % 1009 - 300
        out = run(queue, a=a, s=np.array([7], dtype=np.int64), n=np.int32(n))
        assert out["s"][0] == 7 + a.sum(), n


def test_shared_group_axis_is_not_split(ctx, queue) -> None:
    """An element-wise statement on the same group axis keeps one group per 32 terms."""
    import transforms
    import translator
    from translator.codegen.opencl import generate_code

    knl = translator.make_kernel(
        ["{[i]: 0<=i<n}", "{[j]: 0<=j<n}"],
        ["s[0] = s[0] + sum(i, a[i])", "b[j] = 2*a[j]"])
    knl = transforms.split_iname(knl, "i", 32, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.split_iname(knl, "j", 32, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.add_dtypes(knl, {"a": np.int32, "s": np.int32, "b": np.int32})
    code = generate_code(knl)
    assert "1024" not in str(code.global_size[0])
    run = translator.compile(knl, ctx)
    a = np.arange(5000, dtype=np.int32) % 77
    out = run(queue, a=a, s=np.array([0], dtype=np.int32), n=np.int32(5000))
    assert out["s"][0] == a.sum()
    np.testing.assert_array_equal(out["b"], 2 * a)


# ---------------------------------------------------------------------------------------------
# reassociation on request: automatic mapping runs floating-point sums in parallel

C_DOT = """/* translate-test: rtol=1e-12 */
#include <math.h>
#include <stdio.h>
double dot(int n, const double *restrict a, const double *restrict b)
{
  double s = 0.0;
#pragma translate kernel dotk
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
#pragma translate end kernel
  return s;
}

int main(void)
{
  static double a[400000], b[400000];
  for (int i = 0; i < 400000; i++) {
    a[i] = sin(0.001 * i);
    b[i] = cos(0.0007 * i) + 0.25;
  }
  printf("%.15e %.15e %.15e\\n", dot(400000, a, b), dot(1000, a, b), dot(0, a, b));
  return 0;
}
"""

F_DOT = """! translate-test: rtol=1e-12
subroutine fdot(n, a, b, s)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n), b(n)
  real(8), intent(out) :: s
  integer :: i
  !$translate kernel fdotk
  !$translate set_options(reassociate=True)
  s = 0.0d0
  do i = 1, n
     s = s + a(i) * b(i)
  end do
  !$translate end kernel
end subroutine fdot

program main
  implicit none
  integer, parameter :: n = 300000
  real(8), allocatable :: a(:), b(:)
  real(8) :: s, t
  integer :: i
  allocate(a(n), b(n))
  do i = 1, n
     a(i) = sin(0.001d0 * i)
     b(i) = cos(0.0007d0 * i) + 0.25d0
  end do
  call fdot(n, a, b, s)
  call fdot(777, a, b, t)
  print '(2es24.15)', s, t
end program main
"""


def _report(src: Path, out: Path, *flags: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(out), "--report", *flags],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_floating_point_sum_stays_sequential_by_default(tmp_path: Path) -> None:
    src = tmp_path / "dot.c"
    src.write_text(C_DOT)
    proc = _report(src, tmp_path / "out")
    assert f"{src}:7:19: warning: region dotk runs as a single work item" in proc.stderr
    assert "or allow reassociation (--reassociate, or set_options(reassociate=True))" \
        in proc.stderr
    assert "launch grid: global (1), local (1)" in proc.stdout + proc.stderr


def test_reassociate_flag_maps_a_floating_point_sum(tmp_path: Path) -> None:
    src = tmp_path / "dot.c"
    src.write_text(C_DOT)
    proc = _report(src, tmp_path / "out", "--reassociate")
    text = proc.stdout + proc.stderr
    assert 'split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")' in text
    assert "runs as a single work item" not in text
    assert f"min({MAX_REDUCTION_GROUPS}, (n + 255) // 256)" in text
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work, ("--reassociate",))


def test_reassociate_region_option_in_fortran(tmp_path: Path) -> None:
    src = tmp_path / "dot.f90"
    src.write_text(F_DOT)
    text = "".join(_report(src, tmp_path / "out").__dict__[k] for k in ("stdout", "stderr"))
    assert 'split_iname("i", 256' in text and 'inner_tag="l.0")' in text
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)
