      PROGRAM ARIF2
      IMPLICIT NONE
      INTEGER N, I, J, K
      PARAMETER (N = 12)
      DOUBLE PRECISION A(N), B(N), C(N, N)
      INTEGER M(N)
      DO 5 I = 1, N
         A(I) = DBLE(I - 6) * 0.5D0
         B(I) = 0.0D0
         M(I) = MOD(I * 7, 5) - 2
    5 CONTINUE
C$TRANSLATE KERNEL AK2
      DO 20 I = 1, N
C        skip the non-positive ones (a CYCLE in F66 spelling)
         IF (A(I)) 20, 20, 10
   10    B(I) = SQRT(A(I))
   20 CONTINUE
      DO 30 I = 1, N
C        the IF reads what the rest writes
         IF (A(I) - 1.0D0) 21, 22, 22
   21    A(I) = A(I) + 10.0D0
   22    A(I) = A(I) * 2.0D0
   30 CONTINUE
      DO 40 J = 1, N
      DO 40 I = 1, N
         IF (M(I) + M(J)) 31, 32, 33
   31    C(I, J) = -1.0D0
         GO TO 40
   32    C(I, J) = 0.0D0
         GO TO 40
   33    C(I, J) = 1.0D0
   40 CONTINUE
C$TRANSLATE END KERNEL
      WRITE(*, '(4ES24.16)') A, B
      WRITE(*, '(12F4.0)') C
      END
