"""FORTRAN 66/77 control as maintained codes still write it (h71): a REAL DO variable
(``DO 10 X = 1.0, 5.0``, deleted in Fortran 95, gfortran warns) and the arithmetic IF.
Before, a REAL DO variable anywhere in a file was "Fortran syntax error (fparser could not
parse this statement)" and nothing translated; an arithmetic IF in a region was refused
without a word of what to write.  Now the REAL loop outside regions stays as written (the file
translates) and inside one is refused at its variable with the rewrite; an arithmetic IF whose
labels follow it in its block becomes predicates (the F66 CYCLE ``IF (X) 20, 20, 10`` and the
three-way ``IF (E) 31, 32, 33`` ... ``GO TO 40`` shapes), any other is refused with the
IF ... ELSE IF to write.

h78: labels past another arithmetic IF and past DO loops, with ``GO TO`` and ``IF (c) GO TO``
forward between (`bench/h78_hunt/arif78.f`; before: "arithmetic IF to a label past a DO loop
or another arithmetic IF is not supported"); a branch into a DO loop's range is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

PROGRAM = """\
      PROGRAM LEGACY
      IMPLICIT NONE
      INTEGER N, I, J
      PARAMETER (N = 12)
      DOUBLE PRECISION A(N), B(N), C(N, N), S
      INTEGER M(N)
      REAL X
      S = 0.0D0
      DO 3 X = 1.0, 5.0, 0.5
         S = S + DBLE(X)
    3 CONTINUE
      IF (S - 20.0D0) 4, 4, 5
    4 S = -S
    5 CONTINUE
      DO 6 I = 1, N
         A(I) = DBLE(I - 6) * 0.5D0
         B(I) = 0.0D0
         M(I) = MOD(I * 7, 5) - 2
    6 CONTINUE
C$TRANSLATE KERNEL AK
      DO 20 I = 1, N
         IF (A(I)) 20, 20, 10
   10    B(I) = SQRT(A(I)) + S
   20 CONTINUE
      DO 30 I = 1, N
         IF (A(I) - 1.0D0) 21, 22, 22
   21    A(I) = A(I) + 10.0D0
   22    A(I) = A(I) * 2.0D0
   30 CONTINUE
      DO 40 J = 1, N
      DO 40 I = 1, N
         IF (M(I) + M(J)) 31, 32, 33
   31    C(I, J) = -1.0D0
         GO TO 40
   32    C(I, J) = 0.0D0
         GO TO 40
   33    C(I, J) = 1.0D0
   40 CONTINUE
C$TRANSLATE END KERNEL
      WRITE(*, '(4ES24.16)') A, B, S
      WRITE(*, '(12F4.0)') C
      END
"""

REAL_DO_IN_REGION = """\
      SUBROUTINE R(A, N)
      DOUBLE PRECISION A(N)
      REAL X
C$TRANSLATE KERNEL
      DO 10 I = 1, N
         A(I) = 0.0D0
   10 CONTINUE
      DO 20 X = 1.0, 5.0
         A(1) = A(1) + X
   20 CONTINUE
C$TRANSLATE END KERNEL
      END
"""

BACKWARD = """\
      SUBROUTINE S(A, B, N)
      DOUBLE PRECISION A(N), B(N)
C$TRANSLATE KERNEL
      DO 20 I = 1, N
   10    B(I) = A(I)
         IF (A(I)) 10, 20, 20
   20 CONTINUE
C$TRANSLATE END KERNEL
      END
"""


def test_real_do_outside_and_arithmetic_if_inside(tmp_path: Path) -> None:
    src = tmp_path / "legacy.f"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
    rewritten = (tmp_path / "out" / "legacy.f").read_text()
    assert "      DO 3 X = 1.0, 5.0, 0.5\n" in rewritten
    assert "      IF (S - 20.0D0) 4, 4, 5\n" in rewritten


def _errors(tmp_path: Path, name: str, text: str) -> str:
    src = tmp_path / name
    src.write_text(text)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr


def test_real_do_variable_in_a_region_is_refused_at_it(tmp_path: Path) -> None:
    err = _errors(tmp_path, "realdo.f", REAL_DO_IN_REGION)
    assert ("realdo.f:8:13: error: DO variable 'x' is of type real (a REAL DO variable, "
            "deleted in Fortran 95) inside a kernel region; loop over an integer and compute "
            "it: do k = 0, n; x = first + k*step") in err


def test_arithmetic_ifs_to_labels_past_others_and_past_do_loops(tmp_path: Path) -> None:
    src = tmp_path / "arif78.f"
    src.write_text((REPO / "bench" / "h78_hunt" / "arif78.f").read_text())
    check_sample(src, tmp_path)
    assert "get_group_id" in (tmp_path / "out" / "arif78.cl").read_text()


INTO_A_LOOP = """\
      SUBROUTINE SUB(N, X, C)
      INTEGER N, I, J
      DOUBLE PRECISION X(N), C(N, N)
C$TRANSLATE KERNEL
      DO 40 J = 1, N
      IF (X(J)) 40, 40, 5
    5 DO 40 I = 1, N
         C(I, J) = 1
   40 CONTINUE
C$TRANSLATE END KERNEL
      END
"""


def test_a_branch_into_a_loop_is_refused(tmp_path: Path) -> None:
    err = _errors(tmp_path, "into.f", INTO_A_LOOP)
    assert ("into.f:7:7: error: a branch to label 40, inside the range of the DO loop that "
            "starts here, is not supported inside a kernel region (a branch into a loop); end "
            "the loop before that label, or write the branch as IF ... THEN ... END IF "
            "blocks") in err


def test_arithmetic_if_to_an_earlier_label_is_refused_with_the_rewrite(tmp_path: Path
                                                                       ) -> None:
    err = _errors(tmp_path, "arback.f", BACKWARD)
    assert ("arback.f:6:10: error: arithmetic IF to label 10, which does not follow it in its "
            "block, is not supported inside a kernel region; write it as IF (e < 0) THEN ... "
            "ELSE IF (e == 0) THEN ... ELSE ... END IF") in err
