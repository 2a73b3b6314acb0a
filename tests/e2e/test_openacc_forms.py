"""OpenACC forms real code uses (h92): ``kernels`` around several loops (each loop its own
kernel launch), ``parallel`` with ``loop gang`` / ``loop vector`` inside, ``async(n)`` and
``wait`` (our launches are ordered), ``loop seq``, ``routine seq`` on a called function, a
``data`` region around them; C and Fortran, compared with the original programs.  In C, a
loop directive nested in the loop of a ``parallel`` block's ``loop gang`` was not a claim of
the region (never checked; Fortran's was): a wrong ``loop vector`` translated silently."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

HUNT = REPO / "bench" / "h92_hunt"


@pytest.mark.parametrize("name", ["acc_forms.f90", "acc_forms.c"])
def test_openacc_forms_match_the_original(tmp_path: Path, name: str) -> None:
    check_sample(HUNT / name, tmp_path, ("--report=" + str(tmp_path / "report.txt"),))
    report = (tmp_path / "report.txt").read_text()
    first = report.split("\nregion ")[1]
    assert "launches per call: 2" in first          # the kernels construct: two kernels
    assert report.count("proven: loops") == 3      # loop gang, loop vector, parallel loop
    assert "reductions +:s" in report


WRONG_VECTOR = """\
#include <stdio.h>
#define N 50
#define M 40
static double c[N][M];
int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            c[i][j] = i + j;
#pragma acc parallel
    {
#pragma acc loop gang
        for (int i = 0; i < N; i++) {
#pragma acc loop vector
            for (int k = 1; k < M; k++)
                c[i][k] += 0.5 * c[i][k - 1];
        }
    }
    printf("%.15e\\n", c[N - 1][M - 1]);
    return 0;
}
"""


def test_c_loop_vector_inside_a_parallel_block_is_proven(tmp_path: Path) -> None:
    src = tmp_path / "wrong_vector.c"
    src.write_text(WRONG_VECTOR)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--directives=openacc"], capture_output=True,
                          text=True, timeout=300, check=False, cwd=REPO,
                          env={**os.environ, "TRANSLATE_SERVER": "0"})
    assert done.returncode == 1
    assert ("wrong_vector.c:13:13: error: '#pragma acc loop': the loop over k is declared "
            "parallel, but mapping k to g.0 races: iteration i=0, k=1 writes c[0, 1], "
            "iteration i=0, k=2 reads c[0, 1]") in done.stderr
