"""A directive loop the C frontend cannot read stays as written; the rest of the file
translates (h74, as h71 did for Fortran).  Before, only the constructs the frontend knew it
refused (I/O, goto ...) left a directive's loop as written; any other frontend error in one
(here an inner loop starting at -1 under an unsigned bound, which C runs no iteration of)
stopped the whole file: exit 1 and nothing translated.  Now every frontend error inside an
``omp``/``acc`` loop is a ``directive-untranslated`` warning at the directive naming the line;
in a ``#pragma translate`` region, which is an order, it stays an error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = (REPO / "bench" / "h74_hunt" / "dirfe1.c").read_text()

REGION = """\
#include <stddef.h>
void s(int n, size_t m, double *restrict y)
{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    for (int j = -1; j < m; j++)
      y[i] += 1.0;
#pragma translate end kernel
}
"""


def _translate(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess:
    src = tmp_path / name
    src.write_text(text)
    return subprocess.run([sys.executable, "-m", "translator.cli",
                           "--directives=openmp,openacc,translate", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)


def test_other_directive_loops_translate(tmp_path: Path) -> None:
    done = _translate(tmp_path, "dirfe1.c", PROGRAM)
    assert done.returncode == 0, done.stderr
    assert ("dirfe1.c:18:13: warning: '#pragma omp parallel for' left as written: the "
            "condition 'j < m' compares in unsigned arithmetic (the bound is unsigned and 'j' "
            "is signed), so the start -1 converts to a large number and the loop runs no "
            "iteration in C: convert the bound to a signed type ((long)m) or start at 0 "
            "(line 21) [-Wdirective-untranslated]") in done.stderr
    rewritten = (tmp_path / "out" / "dirfe1.c").read_text()
    assert "  translate_scale_0(x, y, n);" in rewritten
    assert "  translate_shift_0(x, y, n);" in rewritten
    assert "for (int j = -1; j < m; j++)" in rewritten
    work = tmp_path / "run"
    work.mkdir()
    src = work / "dirfe1.c"
    src.write_text(PROGRAM)
    check_sample(src, work)


def test_a_translate_region_stays_an_error(tmp_path: Path) -> None:
    done = _translate(tmp_path, "order.c", REGION)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert ("order.c:6:26: error: the condition 'j < m' compares in unsigned arithmetic"
            in done.stderr)
