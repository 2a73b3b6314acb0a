      PROGRAM REALDO2
      IMPLICIT NONE
      INTEGER N, I
      PARAMETER (N = 10)
      DOUBLE PRECISION A(N), S
      REAL X
      S = 0.0D0
C$TRANSLATE KERNEL RK
      DO 20 I = 1, N
         A(I) = DBLE(I) * 2.0D0
   20 CONTINUE
      DO 10 X = 1.0, 5.0
         S = S + DBLE(X)
   10 CONTINUE
C$TRANSLATE END KERNEL
      WRITE(*, '(4ES24.16)') A, S
      END
