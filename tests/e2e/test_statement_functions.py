"""Statement functions in a region (h57 differential hunt: the FORTRAN 77 one-line function,
``FLUX(U, V) = 0.5D0*(U*U - V)`` before the executable statements, called in the loops of
legacy codes).  Before, the call was taken for an external procedure: "'!$omp parallel do' left
as written: call of unknown external procedure 'flux': its source is not among the
translator's inputs" (or an error in a ``!$translate`` region).  Now the call is the function's
expression with the actual arguments in place of its dummies, converted to the function's type
(implicit or declared: an INTEGER one truncates), and may call an earlier statement function
or read the procedure's variables."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

FIXED = """\
C translate-test: translate=--directives=openmp,translate
      PROGRAM STFN
      IMPLICIT REAL*8 (A-H, O-Z)
      PARAMETER (N = 50)
      DIMENSION X(N), Y(N), Z(N)
      INTEGER IBIN, K(N)
      DATA ALPHA /0.35D0/
      FLUX(U, V) = 0.5D0 * (U * U - V) + ALPHA * DSIGN(1.0D0, U - V)
      AVG(U, V) = 0.5D0 * (U + V)
      SMOOTH(U, V, W) = AVG(U, W) * 0.5D0 + V * 0.5D0
      IBIN(U) = U * 7.5D0
      DO 10 I = 1, N
        X(I) = DSIN(0.3D0 * I) * 2.0D0
   10 CONTINUE
C$OMP PARALLEL DO
      DO 20 I = 2, N - 1
        Y(I) = FLUX(X(I + 1), X(I - 1)) + SMOOTH(X(I-1), X(I), X(I+1))
        K(I) = IBIN(X(I)) - IBIN(X(I) * 0.3D0)
   20 CONTINUE
C$TRANSLATE KERNEL
      DO 30 I = 1, N
        Z(I) = AVG(X(I), DBLE(I)) - FLUX(X(I), 0.0D0)
   30 CONTINUE
C$TRANSLATE END KERNEL
      S = 0.0D0
      DO 40 I = 2, N - 1
        S = S + Y(I) * I + K(I)
   40 CONTINUE
      WRITE(*, '(3ES24.16)') S, Y(7), Z(11)
      WRITE(*, '(10I5)') (K(I), I = 2, N - 1, 5)
      END
"""

ARITY = """\
      SUBROUTINE S(N, X, Y)
      IMPLICIT REAL*8 (A-H, O-Z)
      DIMENSION X(N), Y(N)
      F(U, V) = U - V
C$TRANSLATE KERNEL
      DO 10 I = 1, N
        Y(I) = F(X(I))
   10 CONTINUE
C$TRANSLATE END KERNEL
      END
"""


def test_statement_functions_in_regions_match(tmp_path: Path) -> None:
    src = tmp_path / "stfn.f"
    src.write_text(FIXED)
    check_sample(src, tmp_path)


def test_wrong_argument_count_is_an_error(tmp_path: Path) -> None:
    src = tmp_path / "arity.f"
    src.write_text(ARITY)
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("arity.f:7:16: error: statement function 'f' (line 4) takes 2 argument(s), not 1"
            in done.stderr)
    assert "Traceback" not in done.stderr
