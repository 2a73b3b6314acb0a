"""``GO TO`` the CONTINUE that ends a DO loop, FORTRAN 77's CYCLE (h62 differential hunt: the
shape of LINPACK-era and NPB loops, ``IF (A(I) .EQ. 0.0D0) GO TO 10`` ... ``10 CONTINUE``).
Before, every GO TO in a region was refused ("GOTO statement is not supported inside a kernel
region": an OpenMP loop left as written, a ``!$translate`` region an error).  Now a GO TO whose
label is on the CONTINUE (or END DO) ending the innermost DO loop skips the rest of the
iteration as CYCLE does, in a nest sharing its terminal label too; any other branch is refused
at the GO TO with what to write instead."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
C translate-test: translate=--directives=openmp,translate
      PROGRAM GOCYC
      IMPLICIT REAL*8 (A-H, O-Z)
      PARAMETER (N = 24)
      DIMENSION A(N, N), B(N), C(N)
      DO 5 J = 1, N
      DO 5 I = 1, N
    5 A(I, J) = DBLE(MOD(I * 7 + J * 3, 11) - 5)
C$OMP PARALLEL DO
      DO 10 I = 1, N
      B(I) = -1.0D0
      IF (A(I, 2) .LT. 0.0D0) GO TO 10
      B(I) = DSQRT(A(I, 2))
   10 CONTINUE
C$TRANSLATE KERNEL
      DO 20 J = 1, N
      DO 20 I = 1, N
      IF (A(I, J) .EQ. 0.0D0) GOTO 20
      A(I, J) = 1.0D0 / A(I, J)
   20 CONTINUE
C$TRANSLATE END KERNEL
C$OMP PARALLEL DO PRIVATE(T)
      DO I = 1, N
        C(I) = B(I)
        IF (C(I) .GT. 1.0D0) THEN
          C(I) = 0.0D0
          GO TO 100
        END IF
        T = C(I) * 2.0D0
        C(I) = T + A(I, 3)
  100   CONTINUE
      END DO
      WRITE(*, '(4ES24.16)') B, C
      WRITE(*, '(4ES24.16)') (A(I, 5), A(I, 6), I = 1, N)
      END
"""

REFUSED = """\
      SUBROUTINE S(A, B, N)
      IMPLICIT REAL*8 (A-H, O-Z)
      DIMENSION A(N, N), B(N)
C$TRANSLATE KERNEL
      DO 20 J = 1, N
      DO 10 I = 1, N
      IF (A(I, J) .GT. 0.0D0) GO TO 20
      A(I, J) = 1.0D0
   10 CONTINUE
      B(J) = 0.0D0
   20 CONTINUE
C$TRANSLATE END KERNEL
      END
"""

ACTION_TERMINAL = """\
      SUBROUTINE T(B, N)
      IMPLICIT REAL*8 (A-H, O-Z)
      DIMENSION B(N)
C$TRANSLATE KERNEL
      DO 30 I = 1, N
      IF (B(I) .GT. 0.0D0) GOTO 30
   30 B(I) = 2.0D0
C$TRANSLATE END KERNEL
      END
"""

OUT_OF_LOOP = """\
      SUBROUTINE U(B, N)
      IMPLICIT REAL*8 (A-H, O-Z)
      DIMENSION B(N)
C$TRANSLATE KERNEL
      DO 40 I = 1, N
      IF (B(I) .GT. 0.0D0) GO TO 50
      B(I) = 1.0D0
   40 CONTINUE
C$TRANSLATE END KERNEL
   50 CONTINUE
      END
"""


def test_goto_terminal_continue_is_cycle(tmp_path: Path) -> None:
    src = tmp_path / "gocyc.f"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)


def test_forward_gotos_in_their_block(tmp_path: Path) -> None:
    """h78: a GO TO (or IF (c) GO TO) to a label further on in its block, the executable DO
    terminal of `ACTION_TERMINAL` among them, is a forward branch: the statements between run
    where it is not taken (`bench/h78_hunt/goto78.f`; before: "GO TO 20 is not supported
    inside a kernel region")."""
    src = tmp_path / "goto78.f"
    src.write_text((REPO / "bench" / "h78_hunt" / "goto78.f").read_text())
    check_sample(src, tmp_path)
    assert "get_local_id" in (tmp_path / "out" / "goto78.cl").read_text()
    action = tmp_path / "goact.f"
    action.write_text(ACTION_TERMINAL)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(action), "-o",
                           str(tmp_path / "out2")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr


def _errors(tmp_path: Path, name: str, text: str) -> str:
    src = tmp_path / name
    src.write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_other_branches_are_refused_at_the_goto(tmp_path: Path) -> None:
    err = _errors(tmp_path, "goout.f", REFUSED)
    assert ("goout.f:7:31: error: GO TO 20 skips the rest of an outer DO loop's iteration, "
            "which is not supported inside a kernel region: only a GO TO the CONTINUE that "
            "ends the innermost DO loop (a CYCLE) is (put the rest of the outer loop's body "
            "under an IF)") in err
    err = _errors(tmp_path, "goexit.f", OUT_OF_LOOP)
    assert "goexit.f:6:28: error: GO TO 50 is not supported inside a kernel region" in err
