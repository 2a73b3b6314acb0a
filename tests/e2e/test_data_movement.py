"""Data movement per call: to the device what the region reads (and what it writes only in
part), back what it writes; an array every element of which is written is not copied in."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.e2e.harness import check_sample

SOURCE = """\
#include <stdio.h>
#define N 1000
static double a[N], b[N], c[N];
int main(void)
{
  for (int i = 0; i < N; i++) { a[i] = i; c[i] = -1.0; }
#pragma translate kernel k
  for (int i = 0; i < N; i++)
    b[i] = 2 * a[i];
  for (int i = 1; i < N - 1; i++)
    c[i] = a[i];
#pragma translate end kernel
  printf("%g %g %g %g %g\\n", b[1], b[N - 1], c[0], c[5], c[N - 1]);
  return 0;
}
"""


def test_fully_written_array_is_not_copied_in(tmp_path: Path) -> None:
    src = tmp_path / "ow.c"
    src.write_text(SOURCE)
    work = tmp_path / "w"
    work.mkdir()
    check_sample(src, work)            # partial writes keep the untouched elements
    glue = (work / "out" / "ow.host.c").read_text()
    assert "b, 1000, sizeof(cl_double), TR_OUT | TR_OVERWRITE);" in glue
    assert "c, 1000, sizeof(cl_double), TR_IN | TR_OUT);" in glue
    run = subprocess.run([str(work / "translated")], capture_output=True, text=True,
                         env={**os.environ, "TRANSLATE_DEVICE": "cpu", "TRANSLATE_PROFILE": "1"})
    row = next(line for line in run.stderr.splitlines() if line.startswith("k "))
    assert row.split()[-2:] == ["16000", "16000"]   # a and c in; b and c back
