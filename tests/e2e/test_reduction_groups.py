"""Reductions over work groups launch a bounded number of groups, each running a grid-stride
loop, instead of one group (and one contended atomic update) per 256 terms (issue 13)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pymbolic.primitives as p
import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample
from translator.codegen.bounded_groups import MAX_REDUCTION_GROUPS
from translator.ir import isl_glue as glue

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
    assert ("add the line `#pragma translate set_options(reassociate=True)` after the kernel "
            "directive (or translate with --reassociate)") in proc.stderr
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


# ---------------------------------------------------------------------------------------------
# the last group to finish combines the groups' values (no contended atomic update)

C_FINISH = """/* translate-test: rtol=1e-12 */
#include <math.h>
#include <stdio.h>
double dmax(int n, const double *restrict a)
{
  double m = -1e300;
#pragma translate kernel dmaxk
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    m = fmax(m, a[i]);
#pragma translate end kernel
  return m;
}

double dmin(int n, const double *restrict a)
{
  double m = 1e300;
#pragma translate kernel dmink
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    m = fmin(m, a[i]);
#pragma translate end kernel
  return m;
}

double wsum(int n, const double *restrict a)
{
  double s = 0.0;
#pragma translate kernel wsumk
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++)
    s += a[i];
#pragma translate end kernel
  return s;
}

int main(void)
{
  static double a[700000];
  static const int ns[] = {0, 1, 2, 31, 32, 33, 8191, 32768, 32769, 262143, 262144, 262145,
                           524288, 524289, 700000};
  for (int i = 0; i < 700000; i++)
    a[i] = sin(0.37 * i) * (1.0 + 1e-3 * (i % 1000));
  for (int t = 0; t < (int) (sizeof ns / sizeof ns[0]); t++) {
    double s1 = wsum(ns[t], a), s2 = wsum(ns[t], a);
    printf("n=%d max=%.17g min=%.17g sum=%.8e same=%d\\n", ns[t], dmax(ns[t], a),
           dmin(ns[t], a), s1, s1 == s2);
  }
  return 0;
}
"""


def test_groups_finish_without_atomics_c(tmp_path: Path) -> None:
    """max, min and a rounded sum over groups: one finishing helper per region, sizes around
    multiples of the group count, n = 0, and the same sum (bit for bit) on every call."""
    src = tmp_path / "finish.c"
    src.write_text(C_FINISH)
    _report(src, tmp_path / "out")
    device = (tmp_path / "out" / "finish.cl").read_text()
    for helper in ("_tr_finish_max_float64", "_tr_finish_min_float64", "_tr_finish_sum_float64"):
        assert helper in device
    assert "_tr_atomic_" not in device and "cmpxchg" not in device
    host = (tmp_path / "out" / "finish.host.c").read_text()
    assert host.count("tr_arg_zeroed(") == 3
    prototypes = [ln for ln in host.splitlines() if ln.startswith("void translate_")]
    assert len(prototypes) == 6 and not any("_tr_part_" in ln for ln in prototypes)
    work = tmp_path / "work"
    work.mkdir()
    out = check_sample(src, work)
    assert out.count("same=1") == 15


F_FINISH = """! translate-test: rtol=1e-12
subroutine fstats(n, a, s, m)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: a(n)
  real(8), intent(inout) :: s, m
  integer :: i
  !$translate kernel fsumk
  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     s = s + a(i)
  end do
  !$translate end kernel
  !$translate kernel fmaxk
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     m = max(m, a(i))
  end do
  !$translate end kernel
end subroutine fstats

program main
  implicit none
  integer, parameter :: nmax = 300000
  real(8), allocatable :: a(:)
  real(8) :: s, m
  integer :: i, k
  integer, parameter :: ns(6) = [0, 1, 127, 131072, 131073, nmax]
  allocate(a(nmax))
  do i = 1, nmax
     a(i) = cos(0.011d0 * i) + 1.0d-6 * mod(i, 977)
  end do
  do k = 1, 6
     s = 0.5d0
     m = -2.0d0
     call fstats(ns(k), a, s, m)
     print '(i7, 2es24.15)', ns(k), s, m
  end do
end program main
"""


def test_groups_finish_without_atomics_fortran(tmp_path: Path) -> None:
    src = tmp_path / "finish.f90"
    src.write_text(F_FINISH)
    _report(src, tmp_path / "out")
    device = (tmp_path / "out" / "finish.cl").read_text()
    assert "_tr_finish_sum_float64" in device and "_tr_finish_max_float64" in device
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


def test_python_library_group_max_is_repeatable(ctx, queue) -> None:
    """The Python path passes the zero-filled buffer of per-group values; repeated calls give
    the same bits (the groups' values are combined in group order)."""
    import transforms
    import translator
    from translator.codegen.opencl import generate_code

    knl = translator.make_kernel("{[i]: 0<=i<n}",
                                 ["s[0] = s[0] + sum(i, a[i])", "m[0] = max(m[0], max(i, a[i]))"])
    knl = transforms.split_iname(knl, "i", 64, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.add_dtypes(knl, {"a": np.float64, "s": np.float64, "m": np.float64})
    code = generate_code(knl)
    assert [prm.kind for prm in code.params].count("scratch") == 2
    assert "_tr_atomic_" not in code.device_code
    run = translator.compile(knl, ctx)
    rng = np.random.default_rng(5)
    for n in (1, 63, 64 * 1024, 64 * 1024 + 1, 200_000):
        a = rng.standard_normal(n)
        outs = [run(queue, a=a, s=np.array([0.25]), m=np.array([-9.0]), n=np.int32(n))
                for _ in range(3)]
        assert all(o["s"][0] == outs[0]["s"][0] for o in outs), n
        np.testing.assert_allclose(outs[0]["s"][0], 0.25 + a.sum(), rtol=1e-10, atol=1e-10)
        assert outs[0]["m"][0] == a.max()


# ---------------------------------------------------------------------------------------------
# the last-group finish needs every launched group to arrive (else each group updates atomically)

C_STARTS = """/* translate-test: rtol=1e-12 */
#include <math.h>
#include <stdio.h>
double from1(int n, const double *restrict a)
{
  double s = 0.25;
#pragma translate kernel from1k
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (int i = 1; i < n; i++)
    s += a[i];
#pragma translate end kernel
  return s;
}

double fromm(int m, int n, const double *restrict a)
{
  double s = -0.5;
#pragma translate kernel frommk
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = m; i < n; i++)
    s = fmax(s, a[i]);
#pragma translate end kernel
  return s;
}

double groups1(int n, const double *restrict a)
{
  double s = 1.0;
#pragma translate kernel groups1k
#pragma translate tag_inames("i:g.0")
  for (int i = 1; i < n; i++)
    s += a[i];
#pragma translate end kernel
  return s;
}

double groupsm(int m, int n, const double *restrict a)
{
  double s = 2.0;
#pragma translate kernel groupsmk
#pragma translate tag_inames("i:g.0")
  for (int i = m; i < n; i++)
    s = fmin(s, a[i]);
#pragma translate end kernel
  return s;
}

int main(void)
{
  static double a[300000];
  static const int ns[] = {0, 1, 2, 3, 257, 1024, 1025, 1026, 2049, 65537, 262145, 300000};
  static const int ms[] = {0, 1, 5, 1000, 1023, 1024, 1025, 70000};
  for (int i = 0; i < 300000; i++)
    a[i] = sin(0.37 * i) * (1.0 + 1e-3 * (i % 1000));
  for (int t = 0; t < (int) (sizeof ns / sizeof ns[0]); t++) {
    printf("n= %d from1 %.15e groups1 %.15e\\n", ns[t], from1(ns[t], a), groups1(ns[t], a));
    for (int k = 0; k < (int) (sizeof ms / sizeof ms[0]); k++)
      printf("  m= %d fromm %.17g groupsm %.17g\\n", ms[k], fromm(ms[k], ns[t], a),
             groupsm(ms[k], ns[t], a));
  }
  return 0;
}
"""


def _helpers_by_kernel(device: str) -> dict[str, set[str]]:
    """For each kernel of a device file: the update helpers its body calls."""
    out: dict[str, set[str]] = {}
    for part in device.split("__kernel void")[1:]:
        calls = re.findall(r"(\w+)\s*\(", part.split("{", 1)[0])
        name = next(c for c in calls if c not in ("__attribute__", "reqd_work_group_size"))
        out[name] = set(re.findall(r"(_tr_(?:finish|atomic)_\w+)\(&", part))
    return out


def test_loops_from_1_or_m_finish_in_the_last_group(tmp_path: Path) -> None:
    """Loops from 1 or from a parameter m, split by a work-group size or on the group axis
    alone: the bounded grid counts from the group iname's lowest value, so every launched
    group has terms and the last one finishes (no atomics).  Sizes cross 1024."""
    src = tmp_path / "starts.c"
    src.write_text(C_STARTS)
    _report(src, tmp_path / "out")
    helpers = _helpers_by_kernel((tmp_path / "out" / "starts.cl").read_text())
    assert helpers == {"from1k": {"_tr_finish_sum_float64"},
                       "frommk": {"_tr_finish_max_float64"},
                       "groups1k": {"_tr_finish_sum_float64"},
                       "groupsmk": {"_tr_finish_min_float64"}}, helpers
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


@pytest.mark.parametrize("domain, covered", [
    ("{[g, s]: 0 <= g < 1024 and s >= 0 and g + 1024*s < n}", True),
    # base 0 but the first term at 1: group 0 runs only when n > 1024
    ("{[g, s]: 0 <= g < 1024 and s >= 0 and 1 <= g + 1024*s < n}", False),
    ("{[g, s]: 0 <= g < 1024 and s >= 0 and m <= g + 1024*s < n}", False),
])
def test_isl_proof_that_every_group_runs(domain: str, covered: bool) -> None:
    """The launched box ``0 <= g < min(1024, n)`` against the groups that run the update."""
    box = [p.Comparison(p.Variable("g"), ">=", 0),
           p.Comparison(p.Variable("g"), "<=",
                        p.Sum((p.Max((p.Call(p.Variable("min"), (1024, p.Variable("n"))), 0)),
                               -1)))]
    assert glue.runs_on_whole_box((glue.parse_domain(domain),), ["g"], box) is covered


def test_isl_proof_allows_no_group_running() -> None:
    """Where no group runs the update (n <= 0 launches one idle group) none counts: fine."""
    domain = glue.parse_domain("{[g]: 0 <= g < n}")
    box = [p.Comparison(p.Variable("g"), ">=", 0), p.Comparison(p.Variable("g"), "<=", 0)]
    assert glue.runs_on_whole_box((domain,), ["g"], box)
    assert not glue.runs_on_whole_box((glue.parse_domain("{[g]: 1 <= g < n}"),), ["g"], box)
