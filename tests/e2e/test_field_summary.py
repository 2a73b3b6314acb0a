"""Multi-value floating-point reductions (issue 29 item 1, issue 23 item 3): a field summary,
five sums over a 2-D nest with per-cell temporaries and a loop over the four corners, stays
bit-identical by default with a warning that gives the one line that makes it parallel; with
that line it runs in parallel and agrees within rounding.  An accumulation in a loop whose
bounds name the mapped loop (the oracle's seed 1386) is one reduction over both loops instead
of a scheduling error."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.e2e.harness import REPO, TRANSLATE, build_translated, check_sample, sample_options

SUMMARY = """module fsmod
contains
subroutine field_summary(xmin, xmax, ymin, ymax, volume, density, energy, pressure, xvel, &
                         yvel, vol, mass, ie, ke, press)
  integer, intent(in) :: xmin, xmax, ymin, ymax
  real(8), intent(in) :: volume(xmin:xmax, ymin:ymax), density(xmin:xmax, ymin:ymax)
  real(8), intent(in) :: energy(xmin:xmax, ymin:ymax), pressure(xmin:xmax, ymin:ymax)
  real(8), intent(in) :: xvel(xmin:xmax+1, ymin:ymax+1), yvel(xmin:xmax+1, ymin:ymax+1)
  real(8), intent(out) :: vol, mass, ie, ke, press
  integer :: j, k, jv, kv
  real(8) :: vsqrd, cell_vol, cell_mass
  vol = 0.0d0; mass = 0.0d0; ie = 0.0d0; ke = 0.0d0; press = 0.0d0
  !$translate kernel summary_k
  do k = ymin, ymax
    do j = xmin, xmax
      vsqrd = 0.0d0
      do kv = k, k+1
        do jv = j, j+1
          vsqrd = vsqrd + 0.25d0*(xvel(jv,kv)**2 + yvel(jv,kv)**2)
        end do
      end do
      cell_vol = volume(j,k)
      cell_mass = cell_vol*density(j,k)
      vol = vol + cell_vol
      mass = mass + cell_mass
      ie = ie + cell_mass*energy(j,k)
      ke = ke + cell_mass*0.5d0*vsqrd
      press = press + cell_vol*pressure(j,k)
    end do
  end do
  !$translate end kernel
end subroutine
end module

program main
  use fsmod
  integer, parameter :: nx = 300, ny = 200
  real(8), allocatable :: volume(:,:), density(:,:), energy(:,:), pressure(:,:)
  real(8), allocatable :: xvel(:,:), yvel(:,:)
  real(8) :: vol, mass, ie, ke, press
  integer :: j, k
  allocate(volume(nx,ny), density(nx,ny), energy(nx,ny), pressure(nx,ny))
  allocate(xvel(nx+1,ny+1), yvel(nx+1,ny+1))
  do k = 1, ny
    do j = 1, nx
      volume(j,k) = 1.0d0 + 0.001d0*mod(j*7+k*3, 11)
      density(j,k) = 0.2d0 + 0.01d0*mod(j+2*k, 13)
      energy(j,k) = 2.5d0 - 0.003d0*mod(3*j+k, 17)
      pressure(j,k) = 0.1d0*density(j,k)*energy(j,k)
    end do
  end do
  do k = 1, ny+1
    do j = 1, nx+1
      xvel(j,k) = 0.01d0*mod(j*k, 19) - 0.05d0
      yvel(j,k) = 0.02d0*mod(j+k*5, 23) - 0.2d0
    end do
  end do
  call field_summary(1, nx, 1, ny, volume, density, energy, pressure, xvel, yvel, &
                     vol, mass, ie, ke, press)
  print '(5es25.16)', vol, mass, ie, ke, press
  call field_summary(1, 1, 1, ny, volume, density, energy, pressure, xvel, yvel, &
                     vol, mass, ie, ke, press)
  print '(5es25.16)', vol, mass, ie, ke, press
end program
"""

# Every term of the five sums is positive, so any order of summation is within
# (terms - 1) * 2**-53 of the exact sum relative to it: 60,000 terms give 6.7e-12.
REASSOCIATED = "! translate-test: rtol=1e-11\n"

CORNERS = """#include <stdio.h>
/* an accumulation in a loop whose bounds name the mapped loop, beside another statement */
double corners(int n, const double *restrict b, double *restrict d)
{
  double s = 0.0;
#pragma translate kernel corners_k
#pragma translate split_iname("i", 64, outer_tag="g.0", inner_tag="l.0")
  for (int i = 0; i < n; i++) {
    for (int j = 4 * i; j < 4 * i + 4; j++) {
      s = s + b[j];
      d[j] = 2.0 * b[j];
    }
  }
#pragma translate end kernel
  return s;
}

int main(void)
{
  static double b[40000], d[40000];
  for (int j = 0; j < 40000; j++)
    b[j] = (double) ((j * 37) % 101 - 50);      /* integers: every order sums exactly */
  for (int n = 0; n <= 10000; n += 2500) {
    double s = corners(n, b, d);
    double t = 0.0;
    for (int j = 0; j < 4 * n; j++)
      t += d[j];
    printf("n=%d s=%.17g d=%.17g\\n", n, s, t);
  }
  return 0;
}
"""


def _translate(src: Path, out: Path, *flags: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(out), "--report", *flags],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_summary_is_exact_by_default_and_says_how_to_parallelise(tmp_path: Path) -> None:
    src = tmp_path / "summary.f90"
    src.write_text(SUMMARY)
    proc = _translate(src, tmp_path / "out")
    line = f"{src}:13:3: warning: region summary_k runs as a single work item"
    assert line in proc.stderr
    hint = ("with reassociation it runs in parallel over the ymax + (-1)*ymin + 1 iterations "
            "of loop k: add the line `!$translate set_options(reassociate=True)` after the "
            "kernel directive (or translate with --reassociate)")
    assert hint in proc.stderr
    report = proc.stderr.split("translate: report for", 1)[1]
    assert "mapping: sequential (one work item)" in report and hint in report
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)          # bit-identical


def test_summary_with_the_suggested_line_runs_in_parallel(tmp_path: Path) -> None:
    text = SUMMARY.replace("!$translate kernel summary_k\n",
                           "!$translate kernel summary_k\n"
                           "  !$translate set_options(reassociate=True)\n")
    src = tmp_path / "summary.f90"
    src.write_text(REASSOCIATED + text)
    proc = _translate(src, tmp_path / "out")
    assert "runs as a single work item" not in proc.stderr
    assert "launch grid: global (1)" not in proc.stderr
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


def test_sum_in_a_loop_bounded_by_the_mapped_loop(tmp_path: Path) -> None:
    src = tmp_path / "corners.c"
    src.write_text(CORNERS)
    proc = _translate(src, tmp_path / "out")
    assert "k_outer" not in proc.stderr
    out = check_sample(src, tmp_path)
    assert "n=10000 s=-79 d=-158" in out


def test_suggested_line_uses_the_c_sentinel(tmp_path: Path) -> None:
    src = tmp_path / "corners.c"
    src.write_text(CORNERS.replace('#pragma translate split_iname("i", 64, outer_tag="g.0", '
                                   'inner_tag="l.0")\n', ""))
    proc = _translate(src, tmp_path / "out")
    assert f"{src}:6:19: warning: region corners_k runs as a single work item" in proc.stderr
    assert ("over the n iterations of loop i: add the line "
            "`#pragma translate set_options(reassociate=True)` after the kernel directive"
            in proc.stderr)


def test_profile_points_at_the_sequential_summary(tmp_path: Path) -> None:
    """The region takes all the kernel time: the profile says so, with the line to add."""
    src = tmp_path / "summary.f90"
    src.write_text(SUMMARY)
    exe = build_translated(src, tmp_path, sample_options(src))
    proc = subprocess.run([str(exe)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                                            "TRANSLATE_PROFILE": "1"})
    assert proc.returncode == 0, proc.stderr
    hint = next(line for line in proc.stderr.splitlines()
                if line.startswith("hint: region summary_k"))
    assert hint.startswith(f"hint: region summary_k ({src}:13) takes ")
    assert ("% of the kernel time: it runs on one work item; with reassociation it runs in "
            "parallel over the ymax + (-1)*ymin + 1 iterations of loop k: add the line "
            "`!$translate set_options(reassociate=True)` after the kernel directive") in hint
    text = SUMMARY.replace("!$translate kernel summary_k\n",
                           "!$translate kernel summary_k\n"
                           "  !$translate set_options(reassociate=True)\n")
    src.write_text(text)
    exe = build_translated(src, tmp_path, sample_options(src))
    proc = subprocess.run([str(exe)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TRANSLATE_DEVICE": "cpu",
                                            "TRANSLATE_PROFILE": "1"})
    assert "takes" not in proc.stderr and "kernel time: it runs" not in proc.stderr
