"""A Fortran gather through a neighbour list whose unread slots hold out-of-range values
(h87's md.f90 and hpcg.f90 on the merged tree: "region 'md_0' was generated assuming the
smallest element of nlist >= 1, but the smallest element of nlist = 0", exit 1, where the
original runs).  The scans cover whole leading axes, so a subscript through a table read
only up to a per-column count is not checked against them."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.e2e.harness import TRANSLATE, check_sample

PROGRAM = Path(__file__).parent / "fortran_gathers" / "ragged.f90"


def test_a_neighbour_list_with_unread_slots_runs(tmp_path: Path) -> None:
    check_sample(PROGRAM, tmp_path, ("-Werror=directive-untranslated",
                                     "-Werror=sequential-region"))


ASSUMED_SIZE = """\
      SUBROUTINE FORCES(N, MAXN, NLIST, NUMN, X, F)
      INTEGER N, MAXN, NLIST(MAXN, N), NUMN(N), I, J, K
      DOUBLE PRECISION X(*), F(*), S
C$OMP PARALLEL DO PRIVATE(K, J, S)
      DO 20 I = 1, N
      S = 0.0D0
      DO 10 K = 1, NUMN(I)
      J = NLIST(K, I)
      S = S + X(J) - X(I)
   10 CONTINUE
      F(I) = S
   20 CONTINUE
      END
"""


def test_an_assumed_size_array_gathered_through_a_neighbour_list(tmp_path: Path) -> None:
    """X(*) takes its extent from what the tables can reach; through a neighbour list the
    scans include the unread slots (a caller that filled them with 2e9 made the call ask
    for a 16 GB buffer: CL_INVALID_BUFFER_SIZE at run time).  The loop is left as written."""
    (tmp_path / "forces.f").write_text(ASSUMED_SIZE)
    got = subprocess.run([*TRANSLATE, "forces.f", "--directives=openmp", "-o", "out"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert got.returncode == 0, got.stderr
    assert ("forces.f:4:1: warning: '!$omp parallel do' left as written: cannot determine "
            "the extent of assumed-size array 'x'") in got.stderr, got.stderr
