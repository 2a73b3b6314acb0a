"""Conversions to C's `_Bool` in regions (h63 differential hunt): a value converted to
`_Bool` (`bool` of <stdbool.h>) is 1 when it is not zero, NaN included; it is not truncated.
The C frontend converted with a cast, so the kernel stored `(char) d[i]`: `bool b = 0.5` was
0, `bool m = x & 4` was 4, and the program printed other numbers with exit 0.  Now the
conversion is a test against zero, in stores, local initialisations, casts, constants and
arguments of inlined functions."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
#include <stdio.h>
#include <stdbool.h>
#include <math.h>
#define N 40
static bool flag[N];
static double d[N];
static int iv[N], out[N];
static int pick(bool b, int x) { return b ? x : -x; }
int main(void)
{
  for (int i = 0; i < N; i++) {
    d[i] = (i % 4) * 0.25 - 0.25;
    iv[i] = i * 3;
  }
  d[7] = NAN;
#pragma translate kernel bools
  for (int i = 0; i < N; i++) {
    flag[i] = d[i];
    bool m = iv[i] & 4;
    bool half = 0.5;
    out[i] = m * 10 + (bool)(d[i] * 100) * 100 + half * 1000 + pick(d[i], 7) + flag[i];
  }
#pragma translate end kernel
  long s = 0;
  for (int i = 0; i < N; i++)
    s = s * 3 % 1000003 + out[i] + flag[i];
  printf("%ld %d %d %d %d\\n", s, out[0], out[1], out[7], flag[7]);
  return 0;
}
"""


def test_conversions_to_bool_test_against_zero(tmp_path: Path):
    src = tmp_path / "bools.c"
    src.write_text(PROGRAM)
    expected = check_sample(src, tmp_path)
    assert expected.split()[1:] == ["1108", "993", "1118", "1"]
    kernel = (tmp_path / "out" / "bools.cl").read_text()
    assert "!= 0" in kernel and "(char) d[" not in kernel
