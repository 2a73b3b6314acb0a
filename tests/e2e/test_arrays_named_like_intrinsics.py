"""Arrays named like intrinsic functions, declared by DIMENSION or COMMON alone (h62
differential hunt: FORTRAN 77 codes call their arrays DIM, SUM, INDEX, COUNT, SCALE).
fparser2 enters only type-declared names in its symbol tables, so ``DIM(I, 2)`` of
``DIMENSION DIM(N, N)`` came as a call of the intrinsic DIM: **exit 0 and DIM(I, 2) computed
as max(I - 2, 0)**; ``SUM(I)`` was refused ("sum: the argument is not an array") and
``INDEX(I)`` was a syntax error ("Intrinsic 'INDEX' expects between 2 and 4 args but found
1").  Now a name the procedure declares as an array is an array element wherever it is
read."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
C translate-test: translate=--directives=openmp
      PROGRAM NAMES
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=12)
      DIMENSION DIM(N,N), SUM(N), INDEX(N), Y(N)
      COMMON /W/ COUNT(N), SCALE(N)
      DO 5 J=1,N
      INDEX(J) = MOD(J*7, N) + 1
      SCALE(J) = 0.5D0*DBLE(J)
      DO 5 I=1,N
    5 DIM(I,J) = DBLE(10*I+J)
C$OMP PARALLEL DO
      DO 10 I=1,N
      SUM(I) = DIM(I,2) + DIM(N,I)
      COUNT(I) = SUM(I)*SCALE(INDEX(I)) + DIM(INDEX(I),3)
      Y(I) = MAX(SUM(I), COUNT(I)) + SIGN(SCALE(I), -1.0D0)
   10 CONTINUE
      WRITE(*,'(3ES24.16)') SUM, COUNT, Y
      END
"""


def test_arrays_named_like_intrinsics_match(tmp_path: Path) -> None:
    src = tmp_path / "names.f"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path, ("-Werror",))


DIM_ONLY = """\
C translate-test: translate=--directives=openmp
      PROGRAM DIMS
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=6)
      DIMENSION DIM(N,N), Y(N)
      DO 5 J=1,N
      DO 5 I=1,N
    5 DIM(I,J) = DBLE(10*I+J)
C$OMP PARALLEL DO
      DO 10 I=1,N
      Y(I) = DIM(I,2) + DIM(N,I)
   10 CONTINUE
      WRITE(*,'(3ES24.16)') Y
      END
"""


def test_an_array_named_dim_is_no_call_of_dim(tmp_path: Path) -> None:
    """Before: exit 0 and 5, 4, 4, ... printed instead of 73, 84, 95, ..."""
    src = tmp_path / "dims.f"
    src.write_text(DIM_ONLY)
    check_sample(src, tmp_path)
