      PROGRAM MAIN
      IMPLICIT NONE
      INTEGER N, I
      PARAMETER (N = 77)
      DOUBLE PRECISION A(N), B(N)
      REAL C(N)
      DO 10 I = 1, N
         A(I) = DBLE(I) * 0.3D0
         C(I) = REAL(I) / 7.0
   10 CONTINUE
!$translate kernel fx_k
      DO 20 I = 1, N
         B(I) = A(I) * C(I) + 0.1 * A(I) - SIGN(1.5D0, A(I) - 10D0)
     &          + DBLE(C(I)) ** 2
   20 CONTINUE
!$translate end kernel
      WRITE (*, '(ES24.16)') SUM(B)
      END
