"""Reductions over work groups at full bandwidth (issue 13): the grid-stride loop keeps
several independent accumulators per work item, the last group to finish combines the
groups' values with all its work items in a fixed order, and the grid of a loop from 1 or
from a parameter counts from the loop's first value.  Every program runs on PoCL against the
sequential original; sums must be the same bits on every call."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.e2e.harness import REPO, TRANSLATE, check_sample
from translator.codegen.bounded_groups import MAX_REDUCTION_GROUPS, REDUCTION_UNROLL

C_PROGRAM = """/* translate-test: rtol=1e-11 */
#include <math.h>
#include <stdio.h>
#include <string.h>
double ddot(long n, const double *restrict a, const double *restrict b)
{
  double s = 0.0;
#pragma translate kernel ddotk
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (long i = 0; i < n; i++)
    s += a[i] * b[i];
#pragma translate end kernel
  return s;
}

float fsum(long n, const float *restrict x)
{
  float s = 0.5f;
#pragma translate kernel fsumk
#pragma translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  for (long i = 0; i < n; i++)
    s += x[i];
#pragma translate end kernel
  return s;
}

double dfrom1(long n, const double *restrict a)
{
  double s = 0.25;
#pragma translate kernel dfrom1k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (long i = 1; i < n; i++)
    s += a[i];
#pragma translate end kernel
  return s;
}

double dfromm(long m, long n, const double *restrict a, const double *restrict b)
{
  double s = 0.0;
#pragma translate kernel dfrommk
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (long i = m; i < n; i++)
    s += a[i] * b[i];
#pragma translate end kernel
  return s;
}

double dmaxm(long m, long n, const double *restrict a)
{
  double s = -1e300;
#pragma translate kernel dmaxmk
#pragma translate split_iname("i", 32, outer_tag="g.0", inner_tag="l.0")
  for (long i = m; i < n; i++)
    s = fmax(s, a[i]);
#pragma translate end kernel
  return s;
}

long isum(long n, const int *restrict c)
{
  long s = 3;
#pragma translate kernel isumk
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (long i = 0; i < n; i++)
    s += c[i];
#pragma translate end kernel
  return s;
}

#define NMAX 2600000
static double a[NMAX], b[NMAX];
static float x[NMAX];
static int c[NMAX];

static int same(double u, double v) { return memcmp(&u, &v, sizeof u) == 0; }

int main(void)
{
  /* below, at and above one group, 1024 groups, one and several unrolled passes */
  static const long ns[] = {0, 1, 2, 255, 256, 257, 4097, 262143, 262144, 262145, 1048575,
                            1048576, 1048577, 1310721, 2600000};
  static const long ms[] = {0, 1, 300, 262144, 1000001};
  for (long i = 0; i < NMAX; i++) {
    a[i] = sin(0.001 * i) + 0.5;
    b[i] = cos(0.0007 * i) * 0.25;
    x[i] = (float) ((i % 13) - 6);       /* small integers: float sums are exact */
    c[i] = (int) ((i * 7919) % 100003) - 50000;
  }
  for (int t = 0; t < (int) (sizeof ns / sizeof ns[0]); t++) {
    long n = ns[t];
    double d1 = ddot(n, a, b), d2 = ddot(n, a, b), f1 = dfrom1(n, a), f2 = dfrom1(n, a);
    printf("n %ld ddot %.17g same %d fsum %.9g from1 %.17g same %d isum %ld\\n", n, d1,
           same(d1, d2), fsum(n, x), f1, same(f1, f2), isum(n, c));
    for (int k = 0; k < (int) (sizeof ms / sizeof ms[0]); k++) {
      double e1 = dfromm(ms[k], n, a, b), e2 = dfromm(ms[k], n, a, b);
      printf("  m %ld fromm %.17g same %d max %.17g\\n", ms[k], e1, same(e1, e2),
             dmaxm(ms[k], n, a));
    }
  }
  return 0;
}
"""


def _translate(src: Path, out: Path) -> str:
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(out), "--report"], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout + proc.stderr


def _kernels(device: str) -> dict[str, str]:
    parts = device.split("__kernel void")[1:]
    return {re.search(r"\)\)\) (\w+)\(", "__kernel void" + k).group(1): k for k in parts}


def test_c_sums_match_the_original_and_repeat_bit_for_bit(tmp_path: Path) -> None:
    """double, float, int and max reductions over groups, loops from 0, 1 and m, sizes around
    one group, 1024 groups and the unrolled passes; every one ends in the last-group finish
    and every grid-stride loop keeps `REDUCTION_UNROLL` accumulators."""
    src = tmp_path / "accs.c"
    src.write_text(C_PROGRAM)
    report = _translate(src, tmp_path / "out")
    kernels = _kernels((tmp_path / "out" / "accs.cl").read_text())
    assert set(kernels) == {"ddotk", "fsumk", "dfrom1k", "dfrommk", "dmaxmk", "isumk"}
    for name, text in kernels.items():
        assert f"_tr_accs[{REDUCTION_UNROLL}]" in text, name
        assert re.search(r"_tr_finish_\w+\(&s\[0\], _tr_red\[0\], _tr_part_\w+, _tr_fin_\w+\);",
                         text), name
        assert "_tr_atomic_" not in text, name
    # loops from m: the grid counts from m's group, at most MAX_REDUCTION_GROUPS of them
    assert f"min({MAX_REDUCTION_GROUPS}, (-1)*(m // 256) + (n + 255) // 256)" in report
    work = tmp_path / "work"
    work.mkdir()
    out = check_sample(src, work)
    assert out.count("same 1") == 15 * 2 + 15 * 5 and "same 0" not in out


F_PROGRAM = """! translate-test: rtol=1e-5
subroutine sums(m, n, a, x, s, t)
  implicit none
  integer, intent(in) :: m, n
  real(8), intent(in) :: a(n)
  real(4), intent(in) :: x(n)
  real(8), intent(inout) :: s
  real(4), intent(inout) :: t
  integer :: i
  !$translate kernel dsumk
  !$translate split_iname("i", 128, outer_tag="g.0", inner_tag="l.0")
  do i = m, n
     s = s + a(i)
  end do
  !$translate end kernel
  !$translate kernel ssumk
  !$translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  do i = 1, n
     t = t + x(i)
  end do
  !$translate end kernel
end subroutine sums

program main
  implicit none
  integer, parameter :: nmax = 1500000
  real(8), allocatable :: a(:)
  real(4), allocatable :: x(:)
  real(8) :: s
  real(4) :: t
  integer :: i, k, j
  integer, parameter :: ns(7) = [1, 127, 128, 129, 131073, 524289, nmax]
  integer, parameter :: ms(3) = [1, 2, 70000]
  allocate(a(nmax), x(nmax))
  do i = 1, nmax
     a(i) = cos(0.011d0 * i) + 1.0d-6 * mod(i, 977)
     x(i) = real(mod(i, 9) - 4, 4) * 0.25
  end do
  do k = 1, 7
     do j = 1, 3
        s = 0.5d0
        t = 1.0
        call sums(ms(j), ns(k), a, x, s, t)
        print '(2i8, es24.15, es16.7)', ns(k), ms(j), s, t
     end do
  end do
end program main
"""


def test_fortran_real4_and_real8_sums_from_1_and_m(tmp_path: Path) -> None:
    src = tmp_path / "sums.f90"
    src.write_text(F_PROGRAM)
    _translate(src, tmp_path / "out")
    kernels = _kernels((tmp_path / "out" / "sums.cl").read_text())
    assert "_tr_finish_sum_float64" in kernels["dsumk"]
    assert "_tr_finish_sum_float32" in kernels["ssumk"]
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


SPLIT_528 = """double dot(long m, long n, const double *restrict a, const double *restrict b)
{
  double s = 0.0;
#pragma translate kernel d528
#pragma translate split_iname("i", 256, inner_tag="l.0")
#pragma translate split_iname("i_outer", 528, inner_tag="g.0")
  for (long i = m; i < n; i++)
    s += a[i] * b[i];
#pragma translate end kernel
  return s;
}
"""


def test_split_group_loop_from_a_parameter_launches_its_bound(tmp_path: Path) -> None:
    """A user split of the group loop by 528 from a parameter: the group values wrap
    around, so the grid is the bound itself, not a maximum with the wrapped count."""
    src = tmp_path / "d528.c"
    src.write_text(SPLIT_528)
    report = _translate(src, tmp_path / "out")
    assert "launch grid: global (135168), local (256) work items" in report, report


HOST_LOOP = """/* translate-test: rtol=1e-11 */
#include <math.h>
#include <stdio.h>
void shrink(long kk, long n, double *restrict a, double *restrict s)
{
#pragma translate kernel shrinkk
#pragma translate split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")
  for (long k = 0; k < kk; k++) {
    for (long i = 0; i < n - 70000 * k; i++)
      s[k] += a[i];
    for (long j = 0; j < n; j++)
      a[j] = a[j] * 0.5 + s[k] * 1e-7;
  }
#pragma translate end kernel
}

int main(void)
{
  static double a[600000], s[8];
  for (long i = 0; i < 600000; i++)
    a[i] = sin(0.01 * i) + 0.3;
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < 8; k++)
      s[k] = 0.5 * k;
    shrink(8, 600000 - 1000 * r, a, s);
    for (int k = 0; k < 8; k++)
      printf("%d %d %.15e\\n", r, k, s[k]);
  }
  return 0;
}
"""


def test_group_counts_that_change_inside_a_host_loop(tmp_path: Path) -> None:
    """A group reduction inside a host loop whose launches have fewer groups as k grows: the
    buffer of per-group values has the grid's constant bound (it was sized with the loop
    variable before the loop, which did not compile), and its arrival counter sits at the
    same place for every launch."""
    src = tmp_path / "shrink.c"
    src.write_text(HOST_LOOP)
    _translate(src, tmp_path / "out")
    host = (tmp_path / "out" / "shrink.host.c").read_text()
    assert f"tr_arg_zeroed(&_tr_call, 2, {MAX_REDUCTION_GROUPS + 1}, sizeof(cl_double));" in host
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


def test_two_dimensional_work_groups_finish_together(ctx, queue) -> None:
    """A sum over a 32 x 8 work group and the groups: the finish runs in all 256 work items
    (flattened local id), with the grid-stride accumulators; same bits on every call."""
    import numpy as np

    import transforms
    import translator
    from translator.codegen.opencl import generate_code

    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<8}",
                                 "s[0] = s[0] + sum((i, j), a[i, j])")
    knl = transforms.split_iname(knl, "i", 32, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.tag_inames(knl, "j:l.1")
    knl = transforms.add_dtypes(knl, {"a": np.float64, "s": np.float64})
    device = generate_code(knl).device_code
    assert "_tr_finish_sum_float64(&s[0], _tr_red[0], _tr_part_insn, _tr_fin_insn);" in device
    assert f"_tr_accs[{REDUCTION_UNROLL}]" in device
    run = translator.compile(knl, ctx)
    for n in (1, 31, 32 * 1024 + 5, 140_000):
        a = np.random.default_rng(n).standard_normal((n, 8))
        outs = [run(queue, a=a, s=np.array([0.5]), n=np.int32(n))["s"][0] for _ in range(2)]
        assert outs[0] == outs[1], n
        np.testing.assert_allclose(outs[0], 0.5 + a.sum(), rtol=1e-12, atol=1e-12)
