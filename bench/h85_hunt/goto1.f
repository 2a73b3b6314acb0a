C translate-test: translate=--directives=openmp,openacc,translate
C     Legacy GO TO out of an IF construct inside a region loop body: the label is the
C     loop's CONTINUE (a CYCLE), from an IF ... THEN block, an ELSE branch and a nested IF.
      SUBROUTINE CLIP(N, A, B, TOL)
      INTEGER N, I
      DOUBLE PRECISION A(N), B(N), TOL
!$OMP PARALLEL DO
      DO 100 I = 1, N
        IF (A(I) .LT. 0.0D0) THEN
          B(I) = 0.0D0
          GO TO 100
        END IF
        IF (A(I) .GT. 10.0D0) THEN
          B(I) = 10.0D0
          IF (A(I) .GT. 20.0D0) GO TO 100
          B(I) = B(I) + 1.0D0
        ELSE
          B(I) = A(I)
          IF (ABS(A(I) - 5.0D0) .LT. TOL) THEN
            B(I) = 5.0D0
            GO TO 100
          END IF
        END IF
        B(I) = B(I) * 2.0D0
  100 CONTINUE
      END

      SUBROUTINE SWEEP(N, M, U, V)
      INTEGER N, M, I, J
      DOUBLE PRECISION U(N, M), V(N, M)
!$translate kernel sweep
      DO 20 J = 1, M
        DO 10 I = 1, N
          IF (U(I, J) .EQ. 0.0D0) THEN
            V(I, J) = -1.0D0
            GOTO 10
          ELSE IF (U(I, J) .LT. 0.0D0) THEN
            GO TO 10
          ENDIF
          V(I, J) = SQRT(U(I, J))
   10   CONTINUE
   20 CONTINUE
!$translate end kernel
      END

      PROGRAM GOTO1
      INTEGER N, I, J
      PARAMETER (N = 24)
      DOUBLE PRECISION A(N), B(N), U(N, 3), V(N, 3)
      DO 5 I = 1, N
        A(I) = 1.5D0 * I - 6.0D0
        DO 5 J = 1, 3
          U(I, J) = DBLE(MOD(I * J, 7) - 2)
          V(I, J) = 9.0D0
    5 CONTINUE
      A(5) = 5.0D0
      CALL CLIP(N, A, B, 1.0D-3)
      CALL SWEEP(N, 3, U, V)
      WRITE(*, '(4ES24.16)') B, V
      END
