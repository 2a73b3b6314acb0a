"""Fixed-form OpenMP/OpenACC directives continued with a column-6 mark other than ``&`` (h57
differential hunt: ``C$OMP PARALLEL DO ...`` / ``C$OMP+REDUCTION(...)``, the spelling of many
legacy codes; any character but blank or zero in column 6 continues a fixed-form directive,
and the sentinels ``!$omp``, ``c$omp``, ``*$omp`` may be mixed).  Before, a continuation line
marked ``+`` (or ``1``...) was not read as a directive at all: "'!$omp parallel do' must be
followed by a DO loop" (``C$OMP+``), or the clauses on it were lost and the loop refused as a
race on the reduction variable (``!$OMP+`` after ``*$OMP``).  Now the clauses are joined and the
program matches the original."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

FIXED = """\
C translate-test: translate=--directives=openmp,openacc rtol=1e-13
      PROGRAM CONT
      IMPLICIT NONE
      INTEGER N, I, J, NEG
      PARAMETER (N = 40)
      DOUBLE PRECISION A(N,N), B(N,N), S, AMAX, T
      DO 20 J = 1, N
         DO 10 I = 1, N
            A(I,J) = SIN(0.1D0 * I) * COS(0.07D0 * J) - 0.2D0
   10    CONTINUE
   20 CONTINUE
      S = 0.0D0
      AMAX = 0.0D0
C$OMP PARALLEL DO PRIVATE(I, T)
C$OMP+REDUCTION(+:S)
*$OMP1REDUCTION(MAX:AMAX)
      DO 40 J = 1, N
         DO 30 I = 1, N
            T = A(I,J) * A(I,J)
            S = S + T
            AMAX = DMAX1(AMAX, DABS(A(I,J)))
   30    CONTINUE
   40 CONTINUE
      NEG = 0
!$ACC PARALLEL LOOP COLLAPSE(2)
!$ACC+REDUCTION(+:NEG)
      DO 60 J = 1, N
         DO 50 I = 1, N
            B(I,J) = 2.0D0 * A(I,J)
            IF (A(I,J) .LT. 0.0D0) NEG = NEG + 1
   50    CONTINUE
   60 CONTINUE
      WRITE(*, '(3ES24.16, I6)') S, AMAX, B(7,9), NEG
      END
"""


def test_column6_continuation_marks_are_read(tmp_path: Path) -> None:
    src = tmp_path / "cont.f"
    src.write_text(FIXED)
    check_sample(src, tmp_path)
