"""EQUIVALENCE in regions (h62 differential hunt: legacy codes overlay scalars on array
elements and work arrays on one another).  Before, the names of an EQUIVALENCE group were
separate data to a kernel: ``EQUIVALENCE (S, A(5))`` with a loop ``A(I) = A(I) + S`` passed S
by value (the original reads the new A(5) from I = 6 on), and a local array overlaid on
another (``EQUIVALENCE (TMP(1), OUT(1))``) written in every iteration was made private, its
last values never reaching OUT: exit 0 and wrong numbers.  Now a region that writes one name
of a group and uses another is refused at the write, and a name of a group the region writes
is never private (its last value stays in memory)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

OVERLAID = """\
C translate-test: translate=--directives=openmp,translate
      PROGRAM EQV3
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=20)
      DIMENSION A(N), B(N), C(N), TMP(2), OUT(2), W(N*N), V(N,N)
      EQUIVALENCE (T, A(5))
      EQUIVALENCE (TMP(1), OUT(1)), (W(1), V(1,1))
      DO 5 I=1,N
      A(I) = DBLE(I)
      B(I) = DBLE(I*I)
    5 CONTINUE
      DO 6 I=1,N*N
    6 W(I) = DBLE(I)
C$TRANSLATE KERNEL
      DO 10 I=1,N
      T = B(I)*2.0D0
      C(I) = T + 1.0D0
   10 CONTINUE
C$TRANSLATE END KERNEL
C$TRANSLATE KERNEL
      DO 20 I=1,N
      TMP(1) = B(I) - 1.0D0
      TMP(2) = B(I) + 1.0D0
      B(I) = TMP(1)*TMP(2)
   20 CONTINUE
C$TRANSLATE END KERNEL
C$OMP PARALLEL DO
      DO 30 J=1,N
      DO 30 I=1,N
      V(I,J) = V(I,J) + 1.0D0
   30 CONTINUE
      WRITE(*,'(4ES24.16)') A(5), C(N), OUT
      WRITE(*,'(4ES24.16)') B(1), B(N), W(N+2), V(3,4)
      END
"""

BOTH_USED = """\
C translate-test: translate=--directives=openmp
      PROGRAM EQV2
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=20)
      DIMENSION A(N)
      EQUIVALENCE (S, A(5))
      DO 5 I=1,N
    5 A(I) = DBLE(I)
C$OMP PARALLEL DO
      DO 10 I=1,N
      A(I) = A(I) + S
   10 CONTINUE
      WRITE(*,'(4ES24.16)') A
      END
"""


def test_overlaid_names_written_in_regions_match(tmp_path: Path) -> None:
    src = tmp_path / "eqv3.f"
    src.write_text(OVERLAID)
    check_sample(src, tmp_path)


def test_a_directive_loop_using_two_names_of_one_storage_is_left_as_written(
        tmp_path: Path) -> None:
    src = tmp_path / "eqv2.f"
    src.write_text(BOTH_USED)
    check_sample(src, tmp_path, ("--all-outputs",))
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "o2"), "--directives=openmp"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert ("eqv2.f:9:1: warning: '!$omp parallel do' left as written: the region writes 'a' "
            "and uses 's', which share storage (EQUIVALENCE at line 6): a kernel takes them as "
            "separate data; use one of the names in the region (or remove the EQUIVALENCE) "
            "(line 11)") in done.stderr


def test_a_region_using_two_names_of_one_storage_is_refused_at_the_write(
        tmp_path: Path) -> None:
    src = tmp_path / "eqv2k.f"
    src.write_text(BOTH_USED.replace("C$OMP PARALLEL DO", "C$TRANSLATE KERNEL").replace(
        "   10 CONTINUE\n", "   10 CONTINUE\nC$TRANSLATE END KERNEL\n"))
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o",
                           str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("eqv2k.f:11:7: error: the region writes 'a' and uses 's', which share storage "
            "(EQUIVALENCE at line 6)") in done.stderr
