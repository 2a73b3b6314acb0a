"""Programs of the sizes that blew the translator up (issue 28, items 8-10), translated and
run on the CPU OpenCL device against the original program: 25 statements on one pointer
(C) or assumed-size array (Fortran), sums and products of 300 terms, 60 nested parentheses.
The kernels keep the source's left-to-right order of operations (FP_CONTRACT OFF), so the
results match to the last bit but for the compilers' libraries (rtol 1e-15)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.build.shapes import shape
from tests.e2e.harness import check_sample


@pytest.mark.parametrize("lang", ["c", "fortran"])
@pytest.mark.parametrize("kind,size", [("statements", 25), ("sum", 300), ("product", 300),
                                       ("parens", 60)])
def test_large_shapes_match_the_original(tmp_path: Path, lang: str, kind: str, size: int):
    name, text = shape(kind, lang, size, header="translate-test: rtol=1e-15")
    src = tmp_path / name
    src.write_text(text)
    expected = check_sample(src, tmp_path)
    assert len(expected.split()) >= 5


C_TWO_EXTENTS = """/* translate-test: rtol=0 */
#include <stdio.h>
static void f(int n, int m, const double *restrict x, double *restrict y)
{
#pragma translate kernel
  for (int i = 0; i < n; i++) {
    y[2*n + i] = x[i] + 1.0;
    y[i] = x[i];
  }
  for (int j = 0; j < m; j++)
    y[m + j] = 2.0 * x[j];
#pragma translate end kernel
}
int main(void)
{
  static double x[40], y[64];
  for (int k = 0; k < 40; k++) x[k] = 0.5 * k;
  for (int t = 0; t < 3; t++) {
    int n = t == 0 ? 5 : t == 1 ? 20 : 9, m = t == 0 ? 30 : t == 1 ? 4 : 13;
    for (int k = 0; k < 64; k++) y[k] = -1.0;
    f(n, m, x, y);
    for (int k = 0; k < 64; k++) printf("%g ", y[k]);
    printf("\\n");
  }
  return 0;
}
"""


def test_extent_from_two_parameters_runs(tmp_path: Path):
    """y's extent is the larger of 3n and 2m, each once (isl's bound of the union of the
    footprints: one conditional), right for either being larger; the grid sizes use the
    runtime's tr_max (each operand evaluated once)."""
    src = tmp_path / "two.c"
    src.write_text(C_TWO_EXTENTS)
    check_sample(src, tmp_path)
    host = (tmp_path / "out" / "two.host.c").read_text()
    extent = re.search(r"tr_arg_array\(&_tr_call, 1, y, (.*), sizeof", host).group(1)
    if extent.startswith("(") and extent.endswith(")"):   # glue text is parenthesised (h84)
        extent = extent[1:-1]
    assert extent.count("?") == 1 and extent.endswith("? 3 * _tr_i_n : 2 * _tr_i_m"), extent
    assert "tr_max(" in host
