"""Issue 29 item 2: a minimum (maximum) with its location in one guarded block is an
arg-min (arg-max) reduction, recognised once a loop of the nest is on the hardware
(`translator.analysis.arg_reductions`), in Fortran and C.  Variants that are not exact in
parallel are left as they were: the automatic mapping keeps them on one work item with the
sequential-region warning, and an explicit mapping is the race error it always was.  The
results on PoCL against gfortran/gcc: tests/e2e/test_arg_reductions.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

F_DT = """subroutine calc(nx, ny, c, w, dx, dtmin, jmin, kmin)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(in) :: c(nx, ny), dx
  real(8), intent(out) :: w(nx, ny)
  real(8), intent(inout) :: dtmin
  integer, intent(inout) :: jmin, kmin
  real(8) :: dtc
  real(4) :: single
  integer :: j, k
  !$translate kernel calc_dt_k
  do k = 1, ny
    do j = 1, nx
      dtc = dx*c(j, k)
      single = real(dtc, 4)
      w(j, k) = 0.0d0
      if (dtc < dtmin) then
        dtmin = dtc
        jmin = j
        kmin = k
      end if
    end do
  end do
  !$translate end kernel
end subroutine
"""

C_MAX = """void amax(int n, int m, const double *restrict a, double *restrict w, double *best,
          int *bi, int *bj)
{
  double b = *best;
  int ii = *bi, jj = *bj;
#pragma translate kernel amax_k
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++) {
      double v = a[i + j * n];
      w[i + j * n] = 0.0;
      if (b <= v) {
        b = v;
        ii = i;
        jj = j;
      }
    }
#pragma translate end kernel
  *best = b; *bi = ii; *bj = jj;
}
"""


def _translate(tmp: Path, name: str, text: str, *flags: str) -> subprocess.CompletedProcess:
    src = tmp / name
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp / "out"), "--report=-", *flags],
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("name, text, statement, report", [
    ("dt.f90", F_DT,
     ("dtmin[0,], jmin[0,], kmin[0,] = reduce(argmin, [k, j_outer, j_inner], "
      "_tr_arg(dtc, 1, j_inner + j_outer*256, k))"),
     ("arg-min reduction (value dtmin, location jmin, kmin; equal values: the first in loop "
      "order wins; exact)")),
    ("amax.c", C_MAX,
     ("b[0], ii[0], jj[0] = reduce(argmax_last, [j, i_outer, i_inner], "
      "_tr_arg(v, 1, i_inner + i_outer*256, j))"),
     ("arg-max reduction (value b, location ii, jj; equal values: the last in loop order "
      "wins; exact)")),
])
def test_min_with_location_is_an_arg_reduction_over_both_loops(
        tmp_path: Path, name: str, text: str, statement: str, report: str) -> None:
    proc = _translate(tmp_path, name, text)
    assert proc.returncode == 0, proc.stderr
    assert "runs as a single work item" not in proc.stderr
    assert "chosen by: 2-D group reduction (1 value, one pass)" in proc.stdout, proc.stdout
    assert f"\n  {report}\n" in proc.stdout, proc.stdout
    ir = subprocess.run([sys.executable, "-m", "translator.cli", str(tmp_path / name),
                         "--emit", "ir"], capture_output=True, text=True, timeout=300, check=False)
    assert statement in ir.stdout, ir.stdout


#: Variants of F_DT that are no arg-reduction: (what changes, replacement).
REFUSED = {
    # a scalar is assigned after the block instead of inside it
    "location outside the guard": ("        kmin = k\n      end if\n",
                                   "      end if\n      kmin = k\n"),
    # a location is also assigned outside the block
    "location also outside the guard": ("      end if\n", "      end if\n      jmin = 0\n"),
    # the value is read by another statement of the loop
    "value used otherwise": ("      w(j, k) = 0.0d0\n", "      w(j, k) = dtmin\n"),
    # the location is not affine in the loop indices
    "non-affine location": ("        jmin = j\n", "        jmin = j*j\n"),
    # the value is converted on its way into the target
    "converted value": ("      if (dtc < dtmin) then\n        dtmin = dtc\n",
                        "      if (single < dtmin) then\n        dtmin = single\n"),
    # a location is another array element, not a scalar
    "location array": ("        kmin = k\n", "        w(1, 1) = k\n"),
}


@pytest.mark.parametrize("variant", sorted(REFUSED))
def test_variants_that_are_not_exact_stay_sequential(tmp_path: Path, variant: str) -> None:
    old, new = REFUSED[variant]
    assert old in F_DT
    proc = _translate(tmp_path, "dt.f90", F_DT.replace(old, new))
    assert proc.returncode == 0, proc.stderr
    warning = next(row for row in proc.stderr.splitlines() if ": warning: " in row)
    assert warning.startswith(f"{tmp_path / 'dt.f90'}:11:3: warning: region calc_dt_k runs "
                              "as a single work item: "), warning
    assert warning.endswith("[-Wsequential-region]")
    assert "arg-min reduction" not in proc.stdout


def test_explicit_mapping_of_a_variant_is_the_race_error(tmp_path: Path) -> None:
    old, new = REFUSED["location also outside the guard"]
    text = F_DT.replace(old, new).replace(
        "  !$translate kernel calc_dt_k\n",
        "  !$translate kernel calc_dt_k\n"
        '  !$translate split_iname("j", 64, outer_tag="g.0", inner_tag="l.0")\n')
    proc = _translate(tmp_path, "dt.f90", text)
    assert proc.returncode == 1, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith(f"{tmp_path / 'dt.f90'}:19:9: error: mapping j_inner to l.0 "
                            "races: "), first
    assert "writes dtmin[0]" in first


def test_explicit_mapping_of_the_block_is_an_arg_reduction(tmp_path: Path) -> None:
    text = F_DT.replace(
        "  !$translate kernel calc_dt_k\n",
        "  !$translate kernel calc_dt_k\n"
        '  !$translate split_iname("j", 64, outer_tag="g.0", inner_tag="l.0")\n')
    proc = _translate(tmp_path, "dt.f90", text)
    assert proc.returncode == 0, proc.stderr
    assert "arg-min reduction (value dtmin, location jmin, kmin;" in proc.stdout
