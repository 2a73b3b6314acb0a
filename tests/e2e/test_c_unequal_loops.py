"""C loops whose condition is ``!=`` (``for (i = 0; i != n; i++)``): with a step of 1 or -1
they run the iterations of ``<`` / ``>`` (frontends/c/loops.py).  The program runs as written
and as translated on the CPU device, with n = 0 and n > 0; the outputs must be identical."""

from __future__ import annotations

from pathlib import Path

from tests.build.helpers import write
from tests.e2e.harness import check_sample

PROGRAM = """\
#include <stddef.h>
#include <stdio.h>

void fill(int n, int end, double *restrict a, double *restrict b, long *count)
{
  int p;
  long c = 0;
#pragma translate kernel up
  for (int i = 0; i != n; i++)
    a[i] = 2.0 * i + 1;
  for (p = 0; p != end; ++p) {
    b[p] = a[p] * 0.5;
    c += 1;
  }
#pragma translate end kernel
#pragma translate kernel down
  for (int i = n - 1; i != -1; i--)
    a[i] = a[i] + b[n - 1 - i];
  for (int j = n; 0 != j; --j)
    b[j - 1] -= j;
#pragma translate end kernel
  *count = c + p;
}

void scale(size_t m, double *restrict a)
{
#pragma translate kernel sized
  for (size_t i = 0; i != m; ++i)
    a[i] = 3.0 * a[i] + i;
#pragma translate end kernel
}

int main(void)
{
  double a[16], b[16];
  long count;
  for (int k = 0; k < 16; k++) { a[k] = -1; b[k] = -2; }
  fill(0, 0, a, b, &count);
  printf("%ld %.17g %.17g\\n", count, a[0], b[0]);
  fill(16, 12, a, b, &count);
  for (int k = 0; k < 16; k++) printf("%.17g %.17g\\n", a[k], b[k]);
  printf("%ld\\n", count);
  scale(0, a);
  scale(5, a);
  for (int k = 0; k < 16; k++) printf("%.17g\\n", a[k]);
  return 0;
}
"""


def test_unequal_conditions_match(tmp_path: Path) -> None:
    """Increasing ``i != n`` (declared in the for) and ``p != end`` (declared before, its value
    read after the region), decreasing ``i != -1`` and ``j != 0`` with a bound on either side,
    zero-trip calls (n = 0), a reduction, and ``size_t i != m``: identical output, every loop
    on the device."""
    src = write(tmp_path, "ne.c", PROGRAM)
    work = tmp_path / "work"
    work.mkdir()
    out = check_sample(src, work)
    assert out.splitlines()[0] == "0 -1 -2" and out.splitlines()[17] == "24"
    assert (work / "out" / "ne.cl").read_text().count("__kernel") == 5
