"""Reads through index tables in Fortran (h93): CSR SpMV (``x(col(k))`` over ``k =
rowptr(i), rowptr(i + 1) - 1``), finite-element gathers ``u(conn(n, e))`` with an atomic
assembly, permutations, neighbour tables under ``if (j > 0)``, FORTRAN 77 assumed-size
``X(*)`` and legacy ``X(1)`` dummies.  The caller scans each table for its smallest and
largest element (``tr_index_min_i32``/``tr_index_max_i32``, declared in the rewritten
source); the glue stops a call whose tables leave an array's bounds (its lower bound
included), and an assumed-size array's extent is what the tables can reach (before, ``X(1)``
moved one element and the kernel read past it; ``X(*)`` left the loop as written).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.e2e.harness import (REPO, TRANSLATE, build_translated, check_sample, run,
                               sample_options)

PROGRAMS = Path(__file__).parent / "fortran_gathers"
STRICT = ("-Werror=directive-untranslated", "-Werror=sequential-region")


def test_gathers_translate_in_parallel_and_match(tmp_path: Path) -> None:
    report = tmp_path / "report.txt"
    check_sample(PROGRAMS / "gathers.f90", tmp_path, (*STRICT, f"--report={report}"))
    rewritten = (tmp_path / "out" / "gathers.f90").read_text()
    # col is scanned only up to what rowptr reaches: past nnz it holds -7
    assert "tr_index_least_i32(col, min(size(col, kind=8), int((tr_index_most_i32(rowptr," \
        in rewritten.replace("&\n        ", "")
    assert "function tr_index_most_i32(table, count) bind(C" in rewritten
    cl = (tmp_path / "out" / "gathers.cl").read_text()
    assert "_tr_atomic_sum_float64" in cl
    assert "sequential" not in report.read_text()


def test_fortran_77_assumed_size_and_legacy_dummies(tmp_path: Path) -> None:
    check_sample(PROGRAMS / "legacy.f", tmp_path, STRICT)
    host = (tmp_path / "out" / "legacy.host.c").read_text()
    # X(*) and the legacy X(1): what the tables can reach, not 1 element
    assert "tr_arg_array(&_tr_call, 2, x, _tr_i__tr_max_col, " in host
    assert "tr_arg_array(&_tr_call, 1, x, (1 > _tr_i__tr_max_p ? 1 : _tr_i__tr_max_p), " in host


def test_a_table_written_on_the_device_is_scanned_there(tmp_path: Path) -> None:
    assert check_sample(PROGRAMS / "device_table.f90", tmp_path).split() == \
        ["128.0", "2.0", "4160.0"]


def test_a_table_out_of_bounds_stops_the_call(tmp_path: Path) -> None:
    src = PROGRAMS / "bad_tables.f90"
    exe = build_translated(src, tmp_path, sample_options(src))
    env = {**os.environ, "TRANSLATE_DEVICE": "cpu"}
    runs = {arg: subprocess.run([str(exe), arg], capture_output=True, text=True, env=env,
                                timeout=120) for arg in ("0", "1", "2", "3")}
    for ok in ("0", "3"):
        assert runs[ok].returncode == 0, runs[ok].stderr
        assert runs[ok].stdout.split() == ["5050.0", "1.0"]
    where = "bad_tables.f90:11: error: translate runtime: region 'gather_0' was generated "
    assert runs["1"].returncode == 1 and runs["1"].stdout == ""
    assert runs["1"].stderr.endswith(
        f"{where}assuming the smallest element of perm >= -1, but the smallest element of "
        "perm = -2\n"), runs["1"].stderr
    assert runs["2"].returncode == 1 and runs["2"].stdout == ""
    assert runs["2"].stderr.endswith(
        f"{where}assuming the largest element of perm < size(x, 1) - 1, but the largest "
        "element of perm = 99, size(x, 1) = 100\n"), \
        runs["2"].stderr


SCATTER = """\
subroutine assemble(ne, conn, ue, r)
  integer, intent(in) :: ne, conn(4, ne)
  double precision, intent(in) :: ue(ne)
  double precision, intent(inout) :: r(:)
  integer :: e, n
  !$omp parallel do private(n)
  do e = 1, ne
    do n = 1, 4
      r(conn(n, e)) = r(conn(n, e)) + 0.25d0 * ue(e)
    end do
  end do
end subroutine
"""


def test_a_scatter_without_atomic_is_refused_with_the_fix(tmp_path: Path) -> None:
    src = tmp_path / "scatter.f90"
    src.write_text(SCATTER)
    proc = subprocess.run([*TRANSLATE, str(src), "-o", str(tmp_path / "out"),
                           "--directives=openmp"], cwd=REPO, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith(
        f"{src}:6:3: error: '!$omp parallel do': the loop over e is declared parallel, but "
        "mapping e to g.0 may race"), proc.stderr
    assert ("for example when _tr_size_r_1=0, ne=2; r is written through an index table (a "
            "scatter): where several iterations may update one element, mark the update "
            "atomic ('!$omp atomic update', '!$acc atomic update', '#pragma omp atomic', or "
            "the translator's 'atomic')") in proc.stderr, proc.stderr
    assert "_tr_min_" not in proc.stderr


def test_translate_check_builds_originals_that_call_the_scans(tmp_path: Path) -> None:
    """`translate check` builds the original program with the region calls added, and links
    no runtime: the table scans the calls pass (Fortran, and C since h86) and the packing's
    `tr_check_unheld` (h85) were undefined there.  Gathers through packed components (one
    species' particle->cell table) use both."""
    src = PROGRAMS / "packed.f90"
    (tmp_path / src.name).write_bytes(src.read_bytes())
    done = subprocess.run([*TRANSLATE, "check", src.name, "--directives=openmp,openacc"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout + done.stderr == \
        "translate check: all 4 region executions match (kick_0 x3, shift_0 x1)\n"
