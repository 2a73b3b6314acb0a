C translate-test: translate=--directives=openmp,openacc,translate
C     GO TO out of an IF construct to a label further on in the loop body (not its
C     terminal): the statements between run only where the branch was not taken.  The
C     skipped statements write what the condition reads (A(I) below), a nested IF in an
C     ELSE branch jumps, and a region's straight-line code skips a whole loop.
      SUBROUTINE LIMIT(N, A, B, C, MODE)
      INTEGER N, I, MODE
      DOUBLE PRECISION A(N), B(N), C(N), T
!$OMP PARALLEL DO PRIVATE(T)
      DO 100 I = 1, N
        T = A(I)
        IF (T .LT. 0.0D0) THEN
          B(I) = 0.0D0
          GO TO 50
        ELSE
          IF (T .GT. 8.0D0) THEN
            B(I) = 8.0D0
            GOTO 60
          END IF
        END IF
        A(I) = -A(I)
        B(I) = T * 0.5D0
   50   C(I) = B(I) + 1.0D0
   60   B(I) = B(I) * 2.0D0
  100 CONTINUE
!$translate kernel pick
      IF (MODE .EQ. 1) THEN
        C(1) = -1.0D0
        GO TO 90
      END IF
      DO 80 I = 1, N
        C(I) = C(I) + A(I)
   80 CONTINUE
   90 CONTINUE
      DO 95 I = 2, N
        IF (A(I) .GT. 0.0D0) THEN
          IF (A(I) .GT. 5.0D0) GO TO 94
          A(I) = A(I) + 1.0D0
        END IF
        A(I) = A(I) * 3.0D0
   94   B(I) = B(I) + A(I)
   95 CONTINUE
!$translate end kernel
      END

      PROGRAM GOTO2
      INTEGER N, I, M
      PARAMETER (N = 20)
      DOUBLE PRECISION A(N), B(N), C(N)
      DO 30 M = 0, 1
        DO 10 I = 1, N
          A(I) = 1.25D0 * I - 7.0D0
          B(I) = 0.0D0
          C(I) = 0.0D0
   10   CONTINUE
        CALL LIMIT(N, A, B, C, M)
        WRITE(*, '(4ES24.16)') A, B, C
   30 CONTINUE
      END
