"""Linearised subscripts as Rodinia's OpenMP codes write them (h77): lud's rows of the
parameter ``size`` addressed through the host loop's ``i`` (``a[i*size + j]``), nw's
anti-diagonal ``r*max_cols + c`` with ``r + c`` constant along the parallel loop and
``max_cols`` a local set once to ``N``, srad's index variable declared at the top of the
function and assigned ``k = i*cols + j`` in the loop body; and, mapped by pragmas, LU's
column ``a[j*size + k]`` of the host loop's ``k`` over its pivot ``a[k*size + k]``.  Each
translates with every
claimed loop proved parallel (no loop left as written, no region run as one work item) and
prints what the original prints on the CPU OpenCL device.  Where the rows cannot be proved
the refusal names the assumption that proves them; an index variable whose value is read
after the region stays a variable."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, check_sample

PROGRAMS = Path(__file__).parent / "rodinia_rows"
STRICT = ("-Werror=directive-untranslated", "-Werror=sequential-region")


@pytest.mark.parametrize("name", ["lud_rows", "nw_rows", "srad_rows", "lu_pragmas"])
def test_rodinia_rows_translate_in_parallel_and_match(tmp_path: Path, name: str) -> None:
    src = PROGRAMS / f"{name}.c"
    report = tmp_path / "report.txt"
    check_sample(src, tmp_path, (*STRICT, f"--report={report}"))
    text = report.read_text()
    assert "sequential" not in text, text
    assert text.count("  g.0  legal") >= 2, text


def _translate(src: Path, out: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TRANSLATE, str(src), "-o", str(out), *flags], cwd=REPO,
                          check=False, capture_output=True, text=True, timeout=300)


#: nw's sweep with max_cols changed after the region: no longer a constant, so the rows of
#: max_cols elements are not proved and mapping the diagonal is refused with the assumption
#: that proves them (not the rows of max_cols - 1 that the loop's coefficient proposes).
CHANGED = """\
#include <stdio.h>
#define N 33
static int score[N * N], ref[N * N];
int main(void)
{
  int max_cols = N;
  for (int i = 0; i < N * N; i++) ref[i] = (i * 7 + 3) % 21 - 10;
  for (int d = 0; d < N - 1; d++) {
#pragma translate kernel diag
#pragma translate tag_inames("idx:g.0")
    for (int idx = 0; idx <= d; idx++) {
      int index = (idx + 1) * max_cols + d - idx + 1;
      score[index] = score[index - 1 - max_cols] + ref[index] - score[index - 1];
    }
#pragma translate end kernel
  }
  max_cols = 0;
  printf("%d %d\\n", score[N * N - 1], max_cols);
  return 0;
}
"""


def test_rows_of_a_changing_local_name_the_assumption(tmp_path: Path) -> None:
    src = tmp_path / "changed.c"
    src.write_text(CHANGED)
    proc = _translate(src, tmp_path / "out")
    assert proc.returncode == 1, proc.stderr
    assert f"{src}:13:7: error: mapping idx to g.0 may race" in proc.stderr, proc.stderr
    assert ("  score is addressed by rows of max_cols elements, but 0 <= d - idx + 1 < max_cols "
            "is not proved (a row may reach into another); if d < max_cols - 1 holds, say so "
            "with assume(\"d < max_cols - 1\") in the region\n") in proc.stderr, proc.stderr
    fixed = tmp_path / "fixed.c"
    fixed.write_text(CHANGED.replace('#pragma translate tag_inames("idx:g.0")',
                                     '#pragma translate tag_inames("idx:g.0")\n'
                                     '#pragma translate assume("d < max_cols - 1")'))
    check_sample(fixed, tmp_path)


#: k is read after the region: its last value must reach the printf, so it stays a variable
#: (the region runs it in order) and the program prints what the original prints.
READ_AFTER = """\
#include <stdio.h>
#define R 7
#define C 5
static float a[R * C], b[R * C];
int main(void)
{
  int i, j, k = -1;
  for (i = 0; i < R * C; i++) a[i] = (float)i;
#pragma translate kernel rows
  for (i = 0; i < R; i++)
    for (j = 0; j < C; j++) {
      k = i * C + j;
      b[k] = 2.0f * a[k];
    }
#pragma translate end kernel
  printf("%d %g %g\\n", k, b[0], b[R * C - 1]);
  return 0;
}
"""


def test_index_variable_read_after_the_region_stays_a_variable(tmp_path: Path) -> None:
    src = tmp_path / "after.c"
    src.write_text(READ_AFTER)
    assert check_sample(src, tmp_path) == "34 0 68\n"


#: k's address is taken before the region and its value read through the pointer after it:
#: the region must leave its last value there (it printed -1, the value before the region).
ADDRESS_TAKEN = (READ_AFTER.replace("  int i, j, k = -1;\n",
                                   "  int i, j, k = -1;\n  int *pk = &k;\n")
                 .replace('printf("%d %g %g\\n", k,', 'printf("%d %g %g\\n", *pk,'))


def test_scalar_whose_address_is_taken_keeps_its_last_value(tmp_path: Path) -> None:
    assert "*pk," in ADDRESS_TAKEN and "&k;" in ADDRESS_TAKEN
    src = tmp_path / "address.c"
    src.write_text(ADDRESS_TAKEN)
    assert check_sample(src, tmp_path) == "34 0 68\n"


def test_gather_through_a_pointer_reads_the_table_at_the_call(tmp_path: Path) -> None:
    """srad with J a pointer: the rows read through iN had no footprint the glue could copy,
    so that loop stayed as written (h77); the caller now scans iN for its largest row and the
    loop translates in parallel (h86), printing what the original prints."""
    text = (PROGRAMS / "srad_rows.c").read_text().replace("float J[rows * cols]",
                                                          "float *restrict J")
    src = tmp_path / "gather.c"
    src.write_text(text)
    check_sample(src, tmp_path, STRICT)
    assert "tr_index_max_i32(iN, rows)" in (tmp_path / "out" / "gather.c").read_text()
