"""2-D group reductions (issue 29 items 1 and 2): a reduction over both loops of a 2-D nest
runs with both loops on the hardware (the stride-one loop on l.0 and g.0, the other on g.1),
every value of the nest in one work-group tree pass and one last-group finish.  Floating-point
sums need consent (``set_options(reassociate=True)``, ``--reassociate`` or an OpenMP
``reduction`` clause) and agree within rounding; minima, maxima and integer sums are exact in
any order and give the original's bits.  Sizes are not multiples of the work-group size."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample
from tests.e2e.test_field_summary import REASSOCIATED, SUMMARY

#: The five sums of a field summary in C, over rows of `nx` (not a multiple of 256) and a
#: single row; every term is positive, so any order is within 5e-12 relative.
C_SUMMARY = """/* translate-test: rtol=1e-11 */
#include <stdio.h>
static void summary(int nx, int ny, const double volume[ny][nx], const double density[ny][nx],
                    const double energy[ny][nx], double out[5])
{
  double vol = 0.0, mass = 0.0, ie = 0.0, ke = 0.0, press = 0.0;
#pragma translate kernel summary_k
#pragma translate set_options(reassociate=True)
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++) {
      double cell_vol = volume[k][j];
      double cell_mass = cell_vol * density[k][j];
      vol += cell_vol;
      mass += cell_mass;
      ie += cell_mass * energy[k][j];
      ke += cell_mass * 0.5 * energy[k][j] * energy[k][j];
      press += cell_vol * energy[k][j] * 0.4;
    }
#pragma translate end kernel
  out[0] = vol; out[1] = mass; out[2] = ie; out[3] = ke; out[4] = press;
}

int main(void)
{
  static double v[133][300], d[133][300], e[133][300];
  double out[5];
  for (int k = 0; k < 133; k++)
    for (int j = 0; j < 300; j++) {
      v[k][j] = 1.0 + 0.001 * ((j * 7 + k * 3) % 11);
      d[k][j] = 0.2 + 0.01 * ((j + 2 * k) % 13);
      e[k][j] = 2.5 - 0.003 * ((3 * j + k) % 17);
    }
  summary(300, 133, v, d, e, out);
  printf("%.17g %.17g %.17g %.17g %.17g\\n", out[0], out[1], out[2], out[3], out[4]);
  summary(1, 133, v, d, e, out);
  printf("%.17g %.17g %.17g %.17g %.17g\\n", out[0], out[1], out[2], out[3], out[4]);
  summary(300, 1, v, d, e, out);
  printf("%.17g %.17g %.17g %.17g %.17g\\n", out[0], out[1], out[2], out[3], out[4]);
  return 0;
}
"""

#: The time-step control of the mini-app: per cell a few operations, a store and a minimum;
#: then the location of the minimum as a minimum of cell indices under a condition (the
#: two-kernel form), a maximum, and an integer sum.  No consent: every one is exact.
DT = """module dtmod
contains
subroutine calc_dt(nx, ny, dx, c, u, v, work, dtmin, loc, vmax, count)
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: dx, c(nx, ny), u(nx, ny), v(nx, ny)
  real(8), intent(out) :: work(nx, ny), dtmin, vmax
  integer, intent(out) :: loc, count
  integer :: j, k
  real(8) :: dtc
  dtmin = huge(dtmin)
  !$translate kernel calc_dt_k
  do k = 1, ny
    do j = 1, nx
      dtc = dx/(c(j, k) + abs(u(j, k)) + abs(v(j, k)))
      work(j, k) = dtc
      dtmin = min(dtmin, dtc)
    end do
  end do
  !$translate end kernel
  loc = huge(loc)
  !$translate kernel dt_location_k
  do k = 1, ny
    do j = 1, nx
      if (work(j, k) == dtmin) loc = min(loc, j + (k - 1)*nx)
    end do
  end do
  !$translate end kernel
  vmax = -huge(vmax)
  count = 0
  !$translate kernel extremes_k
  do k = 1, ny
    do j = 1, nx
      vmax = max(vmax, abs(u(j, k)) + abs(v(j, k)))
      if (c(j, k) > 1.5d0) count = count + 1
    end do
  end do
  !$translate end kernel
end subroutine
end module

program main
  use dtmod
  integer, parameter :: nx = 301, ny = 97
  real(8) :: c(nx, ny), u(nx, ny), v(nx, ny), work(nx, ny), dtmin, vmax
  integer :: j, k, loc, count
  do k = 1, ny
    do j = 1, nx
      c(j, k) = 1.0d0 + 0.01d0*mod(j*13 + k*7, 101)
      u(j, k) = 0.3d0*sin(0.01d0*j*k)
      v(j, k) = 0.2d0*cos(0.02d0*j + 0.03d0*k)
    end do
  end do
  call calc_dt(nx, ny, 0.01d0, c, u, v, work, dtmin, loc, vmax, count)
  print '(es25.17, 2i8, es25.17)', dtmin, loc, count, vmax
  print '(es25.17)', sum(work)
  call calc_dt(1, 1, 0.01d0, c, u, v, work, dtmin, loc, vmax, count)
  print '(es25.17, 2i8, es25.17)', dtmin, loc, count, vmax
end program
"""

#: An OpenMP reduction clause consents to reassociation: a 2-D sum and a maximum.
OMP = """/* translate-test: rtol=1e-12 translate=--directives=openmp */
#include <stdio.h>
static void norms(int nx, int ny, const double a[ny][nx], double *s, double *m)
{
  double total = 0.0, big = 0.0;
#pragma omp parallel for reduction(+:total) reduction(max:big)
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++) {
      total += a[k][j] * a[k][j];
      big = a[k][j] > big ? a[k][j] : big;
    }
  *s = total;
  *m = big;
}

int main(void)
{
  static double a[211][333];
  double s, m;
  for (int k = 0; k < 211; k++)
    for (int j = 0; j < 333; j++)
      a[k][j] = 0.5 + 0.001 * ((j * 17 + k * 29) % 1009);
  norms(333, 211, a, &s, &m);
  printf("%.17g %.17g\\n", s, m);
  return 0;
}
"""


#: Neighbours: a triangular nest, a third loop of 3 iterations inside (k, not it, goes onto
#: g.1), loops from 2 and 3 with a step of 2; a start value set in the region (one work group,
#: as before).  All exact: bit-identical.
SHAPES = """#include <math.h>
#include <stdio.h>
static double a[97][301];
static void f(int nx, int ny, double *r1, double *r2, double *r3, int *r4)
{
  double m = 0.0, t = 0.0, u = 0.0;
  int c = 0;
#pragma translate kernel init_k
  m = 1e300;
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++)
      m = fmin(m, a[k][j]);
#pragma translate end kernel
#pragma translate kernel tri_k
  for (int k = 0; k < ny; k++)
    for (int j = 0; j <= k; j++)
      t = a[k][j] > t ? a[k][j] : t;   /* the form that never takes a NaN: exact */
#pragma translate end kernel
#pragma translate kernel deep_k
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++)
      for (int q = 0; q < 3; q++)
        c += (int) (a[k][j] * 10) + q;
#pragma translate end kernel
#pragma translate kernel off_k
  for (int k = 2; k < ny - 1; k++)
    for (int j = 3; j < nx; j += 2)
      u = fmax(u, a[k][j] - a[k - 1][j - 1]);
#pragma translate end kernel
  *r1 = m; *r2 = t; *r3 = u; *r4 = c;
}

int main(void)
{
  double r1, r2, r3;
  int r4;
  for (int k = 0; k < 97; k++)
    for (int j = 0; j < 301; j++)
      a[k][j] = 0.5 + 0.001 * ((j * 17 + k * 29) % 1009);
  f(301, 97, &r1, &r2, &r3, &r4);
  printf("%.17g %.17g %.17g %d\\n", r1, r2, r3, r4);
  f(1, 5, &r1, &r2, &r3, &r4);
  printf("%.17g %.17g %.17g %d\\n", r1, r2, r3, r4);
  return 0;
}
"""


def _translate(src: Path, out: Path, *flags: str) -> str:
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(out), "--report", *flags],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr.split("translate: report for", 1)[1]


def _region(report: str, name: str) -> str:
    match = re.search(rf"^region {name} at .*?(?=^region |\Z)", report, re.M | re.S)
    assert match, report
    return match.group(0)


def _assert_grid_mapping(block: str, fast: str, slow: str, values: int, prefix: str) -> None:
    assert (f'{prefix}split_iname("{fast}", 256, outer_tag="g.0", inner_tag="l.0")\n'
            f'    {prefix}tag_inames("{slow}:g.1")\n') in block, block
    plural = "s" if values > 1 else ""
    assert f"chosen by: 2-D group reduction ({values} value{plural}, one pass)" in block, block
    assert "  launches per call: 1\n" in block, block


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_five_sums_run_in_one_pass_over_both_loops(tmp_path: Path, lang: str) -> None:
    """One kernel, one tree pass (one barrier per level for the five values) and one finish
    call for the five sums; the results agree with the original within rounding."""
    if lang == "c":
        src, fast, slow, prefix = tmp_path / "summary.c", "j", "k", "#pragma translate "
        src.write_text(C_SUMMARY)
    else:
        src, fast, slow, prefix = tmp_path / "summary.f90", "j", "k", "!$translate "
        src.write_text(REASSOCIATED + SUMMARY.replace(
            "!$translate kernel summary_k\n",
            "!$translate kernel summary_k\n  !$translate set_options(reassociate=True)\n"))
    report = _translate(src, tmp_path / "out")
    _assert_grid_mapping(_region(report, "summary_k"), fast, slow, 5, prefix)
    device = (tmp_path / "out" / f"{src.stem}.cl").read_text()
    assert device.count("_tr_finish_sum_float64_x5(&") == 1, device
    assert device.count("_tr_finish_sum_float64(") == 0, device
    kernel = device[device.index("__kernel"):]
    # the store and the 8 halvings of a 256-wide tree, one barrier each for all five values
    assert kernel.count("barrier(CLK_LOCAL_MEM_FENCE)") == 9, kernel
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


def test_minimum_with_store_location_and_extremes_are_exact(tmp_path: Path) -> None:
    """calc_dt's shape (a minimum and a per-cell store), the location of the minimum in its
    two-kernel form, a maximum and a conditional integer count: both loops on the hardware
    without any consent, bit-identical."""
    src = tmp_path / "dt.f90"
    src.write_text(DT)
    report = _translate(src, tmp_path / "out", "-Werror")
    _assert_grid_mapping(_region(report, "calc_dt_k"), "j", "k", 1, "!$translate ")
    _assert_grid_mapping(_region(report, "dt_location_k"), "j", "k", 1, "!$translate ")
    _assert_grid_mapping(_region(report, "extremes_k"), "j", "k", 2, "!$translate ")
    device = (tmp_path / "out" / "dt.cl").read_text()
    assert "_tr_finish_max_float64_sum_int32(&" in device, device
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


def test_openmp_reduction_clause_consents(tmp_path: Path) -> None:
    src = tmp_path / "norms.c"
    src.write_text(OMP)
    report = _translate(src, tmp_path / "out", "--directives=openmp")
    block = report[report.index("region "):]
    _assert_grid_mapping(block, "j", "k", 2, "#pragma translate ")
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


def test_neighbouring_shapes_are_exact(tmp_path: Path) -> None:
    src = tmp_path / "shapes.c"
    src.write_text(SHAPES)
    report = _translate(src, tmp_path / "out")
    for region in ("tri_k", "deep_k", "off_k"):
        _assert_grid_mapping(_region(report, region), "j", "k", 1, "#pragma translate ")
    assert "2-D group reduction" not in _region(report, "init_k")
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)
