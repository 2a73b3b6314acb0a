"""FORTRAN 77's specific intrinsic names whose result type differs from their arguments'
(h62 differential hunt): ``MAX1``/``MIN1`` (real arguments, an INTEGER result truncated toward
zero), ``AMAX0``/``AMIN0`` (integer arguments, a REAL result), ``IDIM``/``DDIM`` (``DIM`` of
integers, of doubles) and GNU's ``DFLOAT`` (an integer as DOUBLE PRECISION), as legacy codes
call them.  Before, each was refused in a region: "intrinsic function 'idim' is not supported
in a kernel region", ``dfloat`` even as "call of unknown external procedure" (an OpenMP loop
left as written, a ``!$translate`` region an error)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import check_sample

PROGRAM = """\
C translate-test: translate=--directives=openmp,translate
      PROGRAM SPEC77
      IMPLICIT REAL*8 (A-H, O-Z)
      PARAMETER (N = 29)
      DIMENSION X(N), Y(N)
      REAL*4 R(N)
      INTEGER K(N), L(N)
      DO 10 I = 1, N
        X(I) = DBLE(I - 15) * 0.45D0
   10 CONTINUE
C$TRANSLATE KERNEL
      DO 20 I = 1, N
        K(I) = MAX1(X(I), -2.5D0) + MIN1(X(I), 1.7D0) * 10
     &       + IDIM(I, 12) - IDIM(12, I)
        R(I) = AMAX0(I, 9) + AMIN0(I - 20, -3) * 0.5
        Y(I) = DDIM(X(I), -1.0D0) + DFLOAT(I * 3) / 7.0D0
   20 CONTINUE
C$TRANSLATE END KERNEL
C$OMP PARALLEL DO
      DO 30 I = 1, N
        L(I) = MIN1(DFLOAT(I) / 4.0D0, X(I)) + IDIM(K(I), 3)
   30 CONTINUE
      WRITE(*, '(15I6)') K, L
      WRITE(*, '(4ES16.8)') R
      WRITE(*, '(3ES24.16)') Y
      END
"""


def test_legacy_specific_intrinsics_match(tmp_path: Path) -> None:
    src = tmp_path / "spec77.f"
    src.write_text(PROGRAM)
    check_sample(src, tmp_path)
