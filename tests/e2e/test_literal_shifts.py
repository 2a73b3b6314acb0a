"""A shift of a C literal (``1 << k``) as an operand of a binary operator or of a compound
assignment (h52 differential hunt): the frontend took its literal left operand for a constant
to fit into the other operand's type and failed inside (``int()`` of the shift), so the region
was refused ("unsupported construct in a region: C Assignment (int() argument must be ...)")
and a ``#pragma omp parallel for`` with ``reduction(|:bits)`` was left as written.  Now the
shift is converted like any other int expression; the program gives the original's output."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
/* translate-test: translate=--directives=openmp */
#include <stdio.h>
#define N 300
static int o[N];
static long q[N];
static unsigned u[N];
static void marks(int n)
{
#pragma translate kernel marks_k
  for (int i = 0; i < n; i++) {
    o[i] |= 1 << (i % 20);
    o[i] ^= (3 << (i % 7)) - 1;
    q[i] = q[i] + (5 << (i % 9)) - (1L << (i % 40));
    u[i] = u[i] * 3u + (1 << (i % 31)) + (7 >> (i % 3));
  }
#pragma translate end kernel
}
static int bits(int n)
{
  int b = 0;
#pragma omp parallel for reduction(|:b)
  for (int i = 0; i < n; i++)
    b |= 1 << (i % 23);
  return b;
}
int main(void)
{
  for (int i = 0; i < N; i++) { o[i] = i * 37; q[i] = -i * 1000003L; u[i] = 4000000000u - i; }
  marks(N);
  long long h = 0;
  for (int i = 0; i < N; i++) h = h * 31 + o[i] + q[i] + u[i];
  printf("%lld %d\\n", h, bits(17));
  return 0;
}
"""


def test_shifted_literals_in_operators_translate_and_match(tmp_path: Path):
    src = tmp_path / "literal_shifts.c"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / "literal_shifts.c").read_text()
    assert "#pragma omp parallel for" not in rewritten   # the reduction loop was translated
    assert "translate kernel marks_k" not in rewritten
