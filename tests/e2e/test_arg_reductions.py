"""Issue 29 item 2: a minimum (maximum) with its location in one loop runs in parallel as an
arg-min (arg-max) reduction and gives the original's bits on PoCL: ties at the first, a
middle and the last position (and in different work groups), NaNs, zeros of both signs,
values that never beat the initial one (the locations keep their values), ``<``, ``<=``,
``>``, ``>=``, a linear cell number as the location, integer values, sizes that are not
multiples of the work-group size; in Fortran and C (samples/fortran/argmin.f90,
samples/c/argmin.c), with the automatic mapping, an explicit one-group mapping and a host loop
around a one-loop reduction."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

SAMPLES = {"fortran": REPO / "samples" / "fortran" / "argmin.f90",
           "c": REPO / "samples" / "c" / "argmin.c"}

#: What `--report` says of each region of the samples: every one is an arg-reduction.
REPORTED = {
    "fortran": ["arg-min reduction (value dtmin, location jmin, kmin; equal values: the first",
                "arg-min reduction (value best, location cell; equal values: the last",
                "arg-max reduction (value best, location jb, kb; equal values: the first",
                "arg-max reduction (value best, location ib; equal values: the last"],
    "c": ["arg-min reduction (value b, location ii, jj; equal values: the first",
          "arg-max reduction (value b, location c; equal values: the last",
          "arg-min reduction (value f, location af; equal values: the first",
          "arg-min reduction (value l, location al; equal values: the last"],
}


def _report(src: Path, tmp: Path) -> str:
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp / "report"), "--report=-"],
                          cwd=REPO, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "runs as a single work item" not in proc.stderr, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_sample_runs_in_parallel_and_matches(tmp_path: Path, language: str) -> None:
    src = SAMPLES[language]
    report = _report(src, tmp_path)
    for line in REPORTED[language]:
        assert line in report, report
    # the 1-D loops are split onto l.0 and g.0 (no "chosen by" line)
    assert report.count("chosen by: 2-D group reduction") == {"fortran": 3, "c": 2}[language]
    out = check_sample(src, tmp_path)
    assert len(out.splitlines()) == (24 if language == "fortran" else 18)


#: The Fortran sample's first region with other mappings: one work group (no group axis),
#: groups of one work item (no local axis), and a location j*k, which keeps k on the host (a
#: loop of launches) and reduces over j.
VARIANTS = {
    "one group": ('  !$translate kernel min_first_k\n',
                  ('  !$translate kernel min_first_k\n'
                   '  !$translate split_iname("j", 64, inner_tag="l.0")\n')),
    "groups only": ('  !$translate kernel min_first_k\n',
                    ('  !$translate kernel min_first_k\n'
                     '  !$translate tag_inames("k:g.0")\n')),
    "host loop": ("        jmin = j\n", "        jmin = j*k\n"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_other_mappings_match(tmp_path: Path, variant: str) -> None:
    old, new = VARIANTS[variant]
    text = SAMPLES["fortran"].read_text()
    assert old in text
    src = tmp_path / "argmin.f90"
    src.write_text(text.replace(old, new, 1))
    report = _report(src, tmp_path)
    assert report.count("arg-min reduction") == 2, report
    check_sample(src, tmp_path)


#: Two arg-reductions and an integer count in one nest (one pass: 3 values), and a mapping
#: by hand onto a 2-D work group (16 x 4) with `<=`.
SEVERAL = """#include <math.h>
#include <stdio.h>
static void both(int nx, int ny, const double a[ny][nx], double *lo, int *li, double *hi,
                 int *hj, int *hk, int *count)
{
  double l = *lo, h = *hi;
  int il = *li, jh = *hj, kh = *hk, c = *count;
#pragma translate kernel both_k
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++) {
      double v = a[k][j];
      if (v < l) { l = v; il = j + k * nx; }
      if (v >= h) { h = v; jh = j; kh = k; }
      c += v > 3.0;
    }
#pragma translate end kernel
  *lo = l; *li = il; *hi = h; *hj = jh; *hk = kh; *count = c;
}

static void local2d(int nx, int ny, const double a[ny][nx], double *lo, int *lj, int *lk)
{
  double l = *lo;
  int jl = *lj, kl = *lk;
#pragma translate kernel local2d_k
#pragma translate split_iname("j", 16, outer_tag="g.0", inner_tag="l.0")
#pragma translate split_iname("k", 4, outer_tag="g.1", inner_tag="l.1")
  for (int k = 0; k < ny; k++)
    for (int j = 0; j < nx; j++)
      if (a[k][j] <= l) { l = a[k][j]; jl = j; kl = k; }
#pragma translate end kernel
  *lo = l; *lj = jl; *lk = kl;
}

int main(void)
{
  static double a[45][123];
  for (int t = 0; t < 3; t++) {
    for (int k = 0; k < 45; k++)
      for (int j = 0; j < 123; j++)
        a[k][j] = ((j * 5 + k * 7 + t) % 9) * 0.5;
    if (t == 1) a[3][4] = NAN;
    if (t == 2) a[44][122] = -1.0;
    double lo = 1e9, hi = -1e9; int li = -1, hj = -1, hk = -1, c = 0;
    both(123, 45, a, &lo, &li, &hi, &hj, &hk, &c);
    printf("%a %d %a %d %d %d\\n", lo, li, hi, hj, hk, c);
    int lj = -1, lk = -1; lo = 0.0;
    local2d(123, 45, a, &lo, &lj, &lk);
    printf("%a %d %d\\n", lo, lj, lk);
  }
  return 0;
}
"""


def test_several_in_one_nest_and_a_2d_work_group(tmp_path: Path) -> None:
    src = tmp_path / "several.c"
    src.write_text(SEVERAL)
    report = _report(src, tmp_path)
    assert "chosen by: 2-D group reduction (3 values, one pass)" in report, report
    assert report.count("arg-m") == 3, report
    check_sample(src, tmp_path)


#: A location that does not depend on the position (a flag): the helper's rank buffer is
#: declared though no statement reads it (it was not: the kernel failed to build).
FLAG = """#include <stdio.h>
static void f(int n, const double *restrict a, double *restrict best, int *restrict found)
{
#pragma translate kernel f_k
  for (int i = 0; i < n; i++)
    if (a[i] < best[0]) { best[0] = a[i]; found[0] = 7; }
#pragma translate end kernel
}
int main(void)
{
  static double a[1000];
  for (int i = 0; i < 1000; i++) a[i] = (i * 37 % 101) * 0.5;
  double best = 10.0; int found = 0;
  f(1000, a, &best, &found);
  printf("%a %d\\n", best, found);
  best = -1.0; found = 0;
  f(1000, a, &best, &found);
  printf("%a %d\\n", best, found);
  return 0;
}
"""


def test_constant_location(tmp_path: Path) -> None:
    src = tmp_path / "flag.c"
    src.write_text(FLAG)
    assert "arg-min reduction (value best, location found;" in _report(src, tmp_path)
    check_sample(src, tmp_path)
