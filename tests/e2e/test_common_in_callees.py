"""A called procedure using COMMON data inside a region (h62 differential hunt: FORTRAN 77
codes share their fields and parameters through COMMON blocks, and a loop calls a subroutine
that reads them there, ``CALL UPD(I)`` with ``COMMON /ST/ P(16), Q(16), R(16)`` in both).
Before, every COMMON variable of a callee was refused: "subroutine 'upd' uses 'r' of a common
block, which the region's procedure does not see under that name", although the region's
procedure declared the same block (a directive loop left as written, a ``!$translate`` region
an error).  Now a callee's COMMON member is the region procedure's
variable where that procedure declares the same block with a member of the same name, type and
extents at the same byte offset; otherwise the refusal names the block and what to declare."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
C translate-test: translate=--directives=openmp,translate
      PROGRAM COM2
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=16)
      COMMON /ST/ P(N), Q(N), R(N)
      COMMON /PAR/ ALPHA, NSTEP
      COMMON X(N), Y(N)
      ALPHA = 0.25D0
      NSTEP = 3
      DO 5 I=1,N
      P(I) = DBLE(I)
      Q(I) = DBLE(N-I)
      X(I) = 1.0D0/DBLE(I)
    5 CONTINUE
C$TRANSLATE KERNEL
      DO 10 I=1,N
      CALL UPD(I)
      CALL BLANK(I)
   10 CONTINUE
C$TRANSLATE END KERNEL
      WRITE(*,'(4ES24.16)') R, Y
      END

      SUBROUTINE UPD(I)
      IMPLICIT REAL*8 (A-H,O-Z)
      COMMON /ST/ P(16), Q(16), R(16)
      COMMON /PAR/ ALPHA, NSTEP
      R(I) = P(I)*ALPHA + Q(I)*DBLE(NSTEP)
      END

      SUBROUTINE BLANK(I)
      COMMON // X(16), Y(16)
      DOUBLE PRECISION X, Y
      Y(I) = X(I)*2.0D0
      END
"""

MOVED = """\
      SUBROUTINE MAIN(N)
      IMPLICIT REAL*8 (A-H,O-Z)
      COMMON /ST/ P(16), Q(16), R(16)
C$TRANSLATE KERNEL
      DO 10 I=1,N
      CALL UPD(I)
   10 CONTINUE
C$TRANSLATE END KERNEL
      END

      SUBROUTINE UPD(I)
      IMPLICIT REAL*8 (A-H,O-Z)
      COMMON /ST/ Q(16), P(16), R(16)
      R(I) = P(I)
      END
"""


def test_callee_common_members_match(tmp_path: Path) -> None:
    src = tmp_path / "com2.f"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)


def test_a_member_at_another_place_is_refused_with_the_block(tmp_path: Path) -> None:
    src = tmp_path / "moved.f"
    src.write_text(MOVED)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("moved.f:6:12: error: subroutine 'upd' uses 'p' of common block /st/, which the "
            "region's procedure does not declare as the same member (same name, type, shape "
            "and place): it cannot be passed to the kernel; declare common block /st/ in the "
            "region's procedure as 'upd' does") in done.stderr
