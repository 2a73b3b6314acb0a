C     forward GO TOs of FORTRAN 77 codes in a region: branches around
C     statements, to an executable DO terminal, and skipping a DO loop
      PROGRAM GOTO78
      IMPLICIT NONE
      INTEGER N, M, I, J
      PARAMETER (N = 21, M = 3)
      DOUBLE PRECISION A(N), B(N), C(N), D(N, M)
      DO 5 I = 1, N
         A(I) = DBLE(MOD(I * 11, 13)) - 6.0D0
         DO 4 J = 1, M
            D(I, J) = DBLE(I * J) * 0.25D0
    4    CONTINUE
    5 CONTINUE
C$TRANSLATE KERNEL GK
      DO 50 I = 1, N
         IF (A(I) .LT. 0.0D0) GO TO 20
         B(I) = SQRT(A(I))
         GO TO 30
   20    B(I) = -SQRT(-A(I))
   30    C(I) = B(I) * 2.0D0
         IF (A(I) .EQ. 0.0D0) GO TO 40
         DO 35 J = 1, M
            D(I, J) = D(I, J) / A(I)
   35    CONTINUE
   40    IF (C(I) .GT. 3.0D0) GO TO 50
         C(I) = C(I) - 1.0D0
   50 B(I) = B(I) + C(I)
C$TRANSLATE END KERNEL
      WRITE(*, '(4ES24.16)') B, C
      WRITE(*, '(4ES24.16)') D
      END
