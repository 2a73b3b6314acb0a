      PROGRAM ARIF1
      IMPLICIT NONE
      INTEGER N, I
      PARAMETER (N = 10)
      DOUBLE PRECISION A(N), B(N), X
      X = -1.0D0
      IF (X) 1, 2, 3
    1 X = 1.0D0
    2 X = X + 1.0D0
    3 CONTINUE
      DO 5 I = 1, N
         A(I) = DBLE(I - 5)
    5 CONTINUE
C$TRANSLATE KERNEL AK
      DO 20 I = 1, N
         IF (A(I)) 11, 12, 13
   11    B(I) = -A(I)
         GO TO 20
   12    B(I) = 100.0D0
         GO TO 20
   13    B(I) = A(I) * X
   20 CONTINUE
C$TRANSLATE END KERNEL
      WRITE(*, '(4ES24.16)') B, X
      END
