"""A local pointer declared inside a region with its value, ``double *orow = out + i*n``,
then indexed (``orow[j]``): the way C projects walk the rows of a flat matrix (h56
differential hunt).  The region was left as written ("declaration of 'orow' (pointer of
non-constant size) inside a region: only scalars and constant-size arrays"), the message
naming no way out.  Now such a pointer is a view of the array, as an inlined callee's pointer
parameter is: ``orow[j]`` is ``out[i*n + j]``, the loop maps in parallel and the program
gives the original's output.  A pointer whose offset reads a variable the region writes, one
declared without a value, and one assigned again are refused with what to write instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#include <stddef.h>
#define N 48
static double a[N * N], b[N * N], m2[N][N];
static double scaled(const double *restrict v, int j) { return 3.0 * v[j] - v[j + 1]; }
static void rows(int n, double *restrict out, const double *restrict in)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double *orow = out + i * n;
    const double *irow = &in[(size_t)i * n];
    for (int j = 0; j < n - 1; j++) orow[j] = 2.0 * irow[j] + scaled(irow, j);
    orow[0] += *irow;
  }
}
static void rows2d(void)
{
#pragma translate kernel rows2d_k
  for (int i = 0; i < N; i++) {
    const double *src = b + i * N;
    double *dst = &m2[i][0];
    for (int j = 0; j < N; j++) dst[j] = src[N - 1 - j] + i;
  }
#pragma translate end kernel
}
int main(void)
{
  for (int i = 0; i < N * N; i++) a[i] = (i * 37 % 101) / 7.0 - 5;
  rows(N, b, a);
  rows2d();
  double s = 0;
  for (int i = 0; i < N * N; i++) s += b[i] * (i % 7 + 1) + m2[i / N][i % N] * (i % 3);
  printf("%.17g %.17g %.17g\\n", b[N + 3], m2[5][7], s);
  return 0;
}
"""


def test_row_pointers_translate_in_parallel_and_match(tmp_path: Path):
    src = tmp_path / "row_pointers.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    out = tmp_path / "out"
    assert "#pragma omp parallel for" not in (out / "row_pointers.c").read_text()
    kernels = (out / "row_pointers.cl").read_text()
    assert "orow" not in kernels and "get_group_id" in kernels   # a view, mapped in parallel


REFUSED = {
    "offset_written": ("""\
void f(int n, double *restrict a, double *restrict b)
{
#pragma translate kernel k
  for (int i = 0; i < n; i++) {
    int k = i * n;
    double *row = a + k;
    k = 0;
    for (int j = 0; j < n; j++) row[j] = b[k + j];
  }
#pragma translate end kernel
}
""", ("6:13: error: local pointer 'row' points at an offset that uses 'k', which the region "
         "writes: write the subscript in full instead (a[k + j] for row[j])")),
    "no_value": ("""\
void f(int n, double *restrict a)
{
#pragma translate kernel k
  for (int i = 0; i < n; i++) {
    double *row;
    a[i] = 0;
  }
#pragma translate end kernel
}
""", ("5:13: error: local pointer 'row' declared without a value inside a region: declare "
         "it where it gets its value, pointing into an array (double *row = a + i*n; or = "
         "&a[i][0]), and do not assign it again")),
    "assigned": ("""\
void f(int n, double *restrict a, double *restrict b)
{
#pragma translate kernel k
  for (int i = 0; i < n; i++) {
    double *row = a;
    row = b;
    row[i] = 1;
  }
#pragma translate end kernel
}
""", "6:5: error: assignment to the whole array 'row'"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_row_pointers_that_cannot_be_views_are_refused_with_what_to_write(tmp_path: Path,
                                                                          case: str):
    text, message = REFUSED[case]
    src = tmp_path / f"{case}.c"
    src.write_text(text)
    proc = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True,
                          check=False)
    assert proc.returncode == 1, proc.stderr
    assert f"{src}:{message}" in proc.stderr
    assert "Traceback" not in proc.stderr
