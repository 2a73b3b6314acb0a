C     arithmetic IFs whose labels lie past another arithmetic IF, past
C     DO loops, with forward GO TOs and IF (c) GO TO between (F66 style)
      PROGRAM ARIF78
      IMPLICIT NONE
      INTEGER N, M, I, J
      PARAMETER (N = 15, M = 4)
      DOUBLE PRECISION A(N), B(N), C(N), D(N, M), ZERO
      ZERO = 0.0D0
      DO 5 I = 1, N
         A(I) = DBLE(MOD(I * 7, 9)) - 4.0D0
         B(I) = 0.0D0
         C(I) = DBLE(MOD(I * 5, 7)) - 3.0D0
         DO 4 J = 1, M
            D(I, J) = DBLE(I + J) * 0.5D0
    4    CONTINUE
    5 CONTINUE
      C(4) = ZERO / ZERO
C$TRANSLATE KERNEL AK78
      DO 30 I = 1, N
         IF (A(I)) 10, 20, 25
   10    B(I) = 1.0D0
   20    IF (C(I)) 22, 22, 25
   22    B(I) = B(I) + 10.0D0
         IF (B(I) .GT. 10.5D0) GO TO 30
         B(I) = B(I) + 100.0D0
   25    B(I) = B(I) + 1000.0D0
   30 CONTINUE
      DO 60 I = 1, N
         IF (C(I)) 40, 50, 50
   40    DO 45 J = 1, M
            D(I, J) = -D(I, J)
   45    CONTINUE
         GO TO 55
   50    DO 52 J = 1, M
            D(I, J) = D(I, J) * 2.0D0
   52    CONTINUE
         IF (A(I) .LT. 0.0D0) GO TO 60
   55    D(I, 1) = D(I, 1) + A(I)
   60 CONTINUE
C$TRANSLATE END KERNEL
      WRITE(*, '(4ES24.16)') B
      WRITE(*, '(4ES24.16)') D
      END
