"""THREADPRIVATE module variables and THREADPRIVATE lists continued on another line (h70; left
by the h62 hunt).  ``!$omp threadprivate(w, v)`` in a module's specification part, and a
procedure's ``!$omp threadprivate(/wk/, p, &`` / ``!$omp q)`` (fixed form: ``C$OMP+``), were
not read: the scratch variables each thread owns were taken as shared and the loops refused
("shared variable 'k' is written by every iteration ...: add private(k)").  Now they are
private to each iteration, as a procedure's own threadprivate variables are."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.harness import REPO, check_sample

FIXED = """\
C translate-test: translate=--directives=openmp rtol=1e-13
      SUBROUTINE FX(N, A, C)
      INTEGER N, I
      REAL*8 A(N), C(N), T, U, P, Q
      COMMON /WK/ T, U
      SAVE P, Q
C$OMP THREADPRIVATE(/WK/, P,
C$OMP+ Q)
C$OMP PARALLEL DO
      DO 10 I = 1, N
         T = A(I) - 1.0D0
         P = T * T
         Q = P + T
         C(I) = Q * 2.0D0
   10 CONTINUE
      END

      PROGRAM MAIN
      INTEGER N, I
      PARAMETER (N = 500)
      REAL*8 A(N), C(N)
      DO 20 I = 1, N
         A(I) = DBLE(I) * 0.25D0
   20 CONTINUE
      CALL FX(N, A, C)
      PRINT '(2ES24.16)', C(3), C(N)
      END
"""


def test_threadprivate_module_variables_and_continued_lists_match(tmp_path: Path) -> None:
    check_sample(REPO / "bench" / "h70_hunt" / "omp_tp_module.f90", tmp_path, ("-Werror",))


def test_a_fixed_form_threadprivate_list_continued_matches(tmp_path: Path) -> None:
    src = tmp_path / "fx.f"
    src.write_text(FIXED)
    check_sample(src, tmp_path, ("-Werror",))
