"""Reads through index tables in C (h86): CSR SpMV (``x[col[k]]`` over ``rowptr[i] <= k <
rowptr[i + 1]``, also through ``const int start = rowptr[i]``), ELL with ``-1`` padding under
``if (j >= 0)``, a permutation, srad's rows ``J[iN[i]*cols + j]``, a ``long`` table, a
declared ``a[n]`` read through a table.  Pointers read that way had no footprint (the loop
was left as written); now the caller scans each table for its smallest and largest element
(``tr_index_min_i32``/``tr_index_max_i32``), the glue moves what those can choose, and stops a
call whose table holds an index below the pointer's first element or past a declared extent.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.e2e.harness import REPO, TRANSLATE, check_sample, run, runtime_dir

PROGRAMS = Path(__file__).parent / "index_gathers"
STRICT = ("-Werror=directive-untranslated", "-Werror=sequential-region")


def test_gathers_through_tables_translate_and_match(tmp_path: Path) -> None:
    src = PROGRAMS / "gathers.c"
    report = tmp_path / "report.txt"
    check_sample(src, tmp_path, (*STRICT, f"--report={report}"))
    rewritten = (tmp_path / "out" / "gathers.c").read_text()
    for name in ("csr", "csr_locals", "ell", "rows", "wide", "declared"):
        assert f"translate_{name}_0(" in rewritten, name
    assert "tr_index_max_i32(col, tr_index_max_i32(rowptr, (nrow + 1)))" in rewritten
    assert "tr_index_max_i64(idx, n)" in rewritten
    assert "sequential" not in report.read_text()


def _build(src: Path, work: Path) -> Path:
    out = work / "out"
    subprocess.run([*TRANSLATE, str(src), "-o", str(out), "--directives=openmp", *STRICT],
                   cwd=REPO, check=True, capture_output=True, text=True, timeout=300)
    rt = runtime_dir()
    run(["gcc", "-c", "-O1", f"-I{rt}", str(out / f"{src.stem}.host.c"),
         str(rt / "translate_rt.c")], work)
    exe = work / "translated"
    run(["gcc", "-O1", "-std=c99", str(out / src.name), str(work / f"{src.stem}.host.o"),
         str(work / "translate_rt.o"), "-lOpenCL", "-lm", "-o", str(exe)], work)
    return exe


def test_a_table_out_of_range_stops_the_call(tmp_path: Path) -> None:
    src = PROGRAMS / "bad_tables.c"
    exe = _build(src, tmp_path)
    original = tmp_path / "original"
    run(["gcc", "-O1", "-std=c99", str(src), "-o", str(original)], tmp_path)
    env = {**os.environ, "TRANSLATE_DEVICE": "cpu"}
    good = subprocess.run([str(exe), "0"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert good.returncode == 0, good.stderr
    assert good.stdout == run([str(original), "0"], tmp_path)
    below = subprocess.run([str(exe), "1"], capture_output=True, text=True, env=env,
                           timeout=120)
    assert below.returncode == 1, below.stderr
    assert below.stdout == ""
    assert below.stderr.endswith(
        "bad_tables.c:9: error: translate runtime: region 'through_pointer_0' was generated "
        "assuming the smallest element of perm >= 0, but the smallest element of perm = -1\n"), \
        below.stderr
    past = subprocess.run([str(exe), "2"], capture_output=True, text=True, env=env,
                          timeout=120)
    assert past.returncode == 1, past.stderr
    assert past.stderr.endswith(
        "bad_tables.c:17: error: translate runtime: region 'through_declared_0' was generated "
        "assuming the largest element of perm < n, but the largest element of perm = 100, "
        "n = 100\n"), past.stderr


#: A guard the footprint cannot see (``mask[i]``) may skip table elements that hold
#: anything, and a scatter (``b[perm[i]] = ...``) is no read: both stay as before.
UNSEEN = """\
#include <stdio.h>
static void masked(int n, const int *restrict mask, const int *restrict perm,
                   const double *restrict a, double *restrict b)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (mask[i]) b[i] = a[perm[i]];
}
static void scatter(int n, const int *restrict perm, const double *restrict a,
                    double *restrict b)
{
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    b[perm[i]] = a[i];
}
int main(void) { return 0; }
"""


def test_unseen_guards_and_scatters_stay_as_written(tmp_path: Path) -> None:
    src = tmp_path / "unseen.c"
    src.write_text(UNSEEN)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out"),
                           "--directives=openmp"], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert (f"{src}:5:13: warning: '#pragma omp parallel for' left as written: cannot tell "
            "how many elements of 'a' the region accesses") in proc.stderr, proc.stderr
    assert (f"{src}:12:13: warning: '#pragma omp parallel for' left as written: cannot tell "
            "how many elements of 'b' the region accesses") in proc.stderr, proc.stderr


def test_a_table_written_on_the_device_is_scanned_there(tmp_path: Path) -> None:
    """Inside a data region a region writes the table on the device; the next region gathers
    through it.  The host copy is still zeros: a scan of it chose one element of `a` to move
    and the kernel read past it (garbage, exit 0).  The scan reads the device copy there."""
    expected = check_sample(PROGRAMS / "device_table.c", tmp_path, STRICT)
    assert expected.split()[:2] == ["8", "1994"]
