"""A data clause on a compute construct with a section smaller than what its loop uses (h70;
noted by h63): ``#pragma acc parallel loop copyin(x[0:n/2])`` over ``i < n``, ``#pragma omp
target teams distribute parallel for map(from: y[1:n-1])`` over ``i = 0 ..``, Fortran
``copyin(x(1:n/2))`` and ``map(to: x(1:n))`` of ``x(0:n)`` read at ``x(i - 1)``.  Such a
clause moves nothing in a translation (the region moves what the loop uses), so the result is
the program's without directives, as before; but it was accepted without a word, while an
OpenMP or OpenACC compiler would run the loop on memory the device does not hold.  Now each is
a ``directive-data-section`` warning at the clause, with an element the loop uses outside
it; a clause that covers the loop is silent."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

HUNT = REPO / "bench" / "h70_hunt"

EXPECTED = {
    "acc_short_clauses.c": [
        "acc_short_clauses.c:7:27: warning: '#pragma acc parallel loop': copyin(x[0:n/2]) "
        "covers less than the loop uses (the loop reads element 3 of dimension 1 of 'x' at "
        "i=3, n=6); a data clause of a compute construct moves nothing here",
        "acc_short_clauses.c:13:50: warning: '#pragma omp target teams distribute parallel "
        "for': map(from: y[1:n-1]) covers less than the loop uses (the loop writes element 0",
    ],
    "acc_short_clauses.f90": [
        "acc_short_clauses.f90:9:23: warning: '!$acc parallel loop': copyin(x(1:n/2)) covers "
        "less than the loop uses (the loop reads element 2 of dimension 1 of 'x' at i=2, n=2)",
        "acc_short_clauses.f90:20:45: warning: '!$omp target teams distribute parallel do': "
        "map(to: x(1:n)) covers less than the loop uses (the loop reads element 0 of "
        "dimension 1 of 'x' at i=1",
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_short_sections_warn_at_the_clause_and_results_match(name: str,
                                                             tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(HUNT / name), "-o",
                           str(tmp_path / "out"), "--directives=openacc,openmp"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    for message in EXPECTED[name]:
        assert message in done.stderr
    assert done.stderr.count("[-Wdirective-data-section]") == 2   # not the covering ones
    (tmp_path / "run").mkdir()
    check_sample(HUNT / name, tmp_path / "run")
