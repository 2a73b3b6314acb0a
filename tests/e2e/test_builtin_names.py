"""Regions and variables named like OpenCL C built-in functions (``dot``, ``length``, ``step``,
``mix``): the kernel must not redefine the built-in, and the program must still match."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

SOURCE = """\
#include <stdio.h>
#define N 300

static double dot(int n, const double *restrict a, const double *restrict step)
{
  double length = 0.0;
#pragma translate kernel dot
  for (int i = 0; i < n; i++)
    length += a[i] * step[i];
#pragma translate end kernel
  return length;
}

static void mix(int n, const double *restrict clamp, double *restrict normalize)
{
#pragma translate kernel mix
  for (int i = 0; i < n; i++)
    normalize[i] = 2.0 * clamp[i] + 1.0;
#pragma translate end kernel
}

int main(void)
{
  static double a[N], b[N], c[N];
  for (int i = 0; i < N; i++) {
    a[i] = 0.5 * i;
    b[i] = 1.0 / (i + 1);
  }
  mix(N, a, c);
  printf("dot %.17g c[7] %.17g\\n", dot(N, a, b), c[7]);
  return 0;
}
"""


def test_builtin_function_names_as_region_and_variable_names(tmp_path: Path) -> None:
    src = tmp_path / "builtins.c"
    src.write_text(SOURCE)
    out = check_sample(src, tmp_path)
    assert out.startswith("dot ")
