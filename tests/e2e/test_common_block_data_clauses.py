"""COMMON blocks named in data clauses (h62 differential hunt: FORTRAN 77 codes ported with
OpenACC keep their fields in COMMON and move whole blocks, ``!$acc data copyin(/grid/)
copy(/fld/)``, as the OpenACC standard allows).  Before, the translation stopped: "malformed
data clause item '/GRID/': expected an array name".  Now a block's name stands for its arrays
(its scalars go to each region by value), so the regions find them present."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
C translate-test: translate=--directives=openacc,openmp rtol=1e-13
      PROGRAM ACCCOM
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=40)
      COMMON /GRID/ X(N), DX
      COMMON /FLD/ U(N), V(N)
      DX = 0.5D0
      DO 5 I=1,N
      X(I) = DBLE(I)*DX
      U(I) = DSIN(X(I))
      V(I) = 0.0D0
    5 CONTINUE
!$ACC DATA COPYIN(/GRID/) COPY(/FLD/)
      DO 30 IT=1,3
!$ACC PARALLEL LOOP
      DO 10 I=2,N-1
      V(I) = (U(I+1) - U(I-1))/(2.0D0*DX) + X(I)*1.0D-3
   10 CONTINUE
!$ACC PARALLEL LOOP
      DO 20 I=2,N-1
      U(I) = U(I) + 0.1D0*V(I)
   20 CONTINUE
   30 CONTINUE
!$ACC END DATA
!$OMP TARGET DATA MAP(TOFROM: /FLD/)
!$OMP TARGET TEAMS DISTRIBUTE PARALLEL DO
      DO 40 I=1,N
      V(I) = V(I) + U(I)
   40 CONTINUE
!$OMP END TARGET DATA
      WRITE(*,'(4ES24.16)') U(2), U(N/2), V(3), V(N-1)
      END
"""

UNDECLARED = """\
      SUBROUTINE S(N, U)
      DOUBLE PRECISION U(N)
!$ACC DATA COPY(/FLD/)
!$ACC PARALLEL LOOP
      DO 10 I=1,N
      U(I) = 0.0D0
   10 CONTINUE
!$ACC END DATA
      END
"""


def test_common_blocks_in_data_clauses_match(tmp_path: Path) -> None:
    src = tmp_path / "acccom.f"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "o2"), "--directives=openacc,openmp", "--report"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert ("expects present: u (data region at line 13), v (data region at line 13), x (data "
            "region at line 13)") in done.stderr


def test_a_block_the_procedure_does_not_declare(tmp_path: Path) -> None:
    src = tmp_path / "undeclared.f"
    src.write_text(UNDECLARED)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out"), "--directives=openacc"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("undeclared.f:3:1: error: common block /FLD/ in a data clause is not declared in "
            "subroutine 's'") in done.stderr
