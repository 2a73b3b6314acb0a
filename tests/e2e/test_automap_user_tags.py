"""The automatic mapper and loops the user tagged sequential (``unr``, ``ord``) without mapping
anything: it maps the other loops and leaves the tagged ones alone, and never reports a
transform call the user did not write."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import check_sample

UNROLLED_INNER = """\
#include <stdio.h>

void scale4(int m, const double *restrict a, double *restrict b)
{
#pragma translate kernel
#pragma translate tag_inames("j:unr")
  for (int i = 0; i < m; i++)
    for (int j = 0; j < 4; j++)
      b[4*i + j] = a[4*i + j] * 2.0 + j;
#pragma translate end kernel
}

int main(void)
{
  enum { M = 300 };
  static double a[4*M], b[4*M];
  for (int k = 0; k < 4*M; k++)
    a[k] = 0.25 * k;
  scale4(M, a, b);
  for (int k = 0; k < 4*M; k += 97)
    printf("%d %.17g\\n", k, b[k]);
  return 0;
}
"""

UNROLLED_ONLY_LOOP = """\
void twice(int m, const double *restrict a, double *restrict b)
{
#pragma translate kernel
#pragma translate tag_inames("i:unr")
  for (int i = 0; i < m; i++)
    b[i] = a[i] * 2.0;
#pragma translate end kernel
}
"""


def _translate(src: Path, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", str(out),
                           "--report"], capture_output=True, text=True)


def test_unrolled_inner_loop_stays_unrolled_and_outer_is_mapped(tmp_path: Path) -> None:
    src = tmp_path / "scale4.c"
    src.write_text(UNROLLED_INNER)
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert "error" not in done.stderr
    assert 'split_iname("i", 256, outer_tag="g.0", inner_tag="l.0")' in done.stderr
    assert 'split_iname("j"' not in done.stderr
    work = tmp_path / "work"
    work.mkdir()
    check_sample(src, work)


def test_unrolled_only_loop_names_the_users_pragma_not_split_iname(tmp_path: Path) -> None:
    src = tmp_path / "twice.c"
    src.write_text(UNROLLED_ONLY_LOOP)
    done = _translate(src, tmp_path / "out")
    assert done.returncode == 1
    assert "error: split_iname" not in done.stderr
    assert (f"{src}:3:19: warning: region twice_0 runs as a single work item: the loop over i "
            "is tagged 'unr' by a pragma, and the automatic mapping does not change a loop the "
            "user tagged") in done.stderr
    assert (f"{src}:4:19: error: iname 'i' is unrolled but its number of values is not a "
            "constant") in done.stderr
