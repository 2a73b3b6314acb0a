      PROGRAM ENTRY71
      INTEGER N, I
      PARAMETER (N = 8)
      DOUBLE PRECISION A(N), B(N)
      DO 5 I = 1, N
         A(I) = DBLE(I)
    5 CONTINUE
C$TRANSLATE KERNEL EN
      DO 10 I = 1, N
         CALL TWICE(A(I), B(I))
   10 CONTINUE
C$TRANSLATE END KERNEL
      WRITE(*, '(4ES24.16)') B
      END
      SUBROUTINE SCALE(X, Y, F)
      DOUBLE PRECISION X, Y, F
      Y = X * F
      RETURN
      ENTRY TWICE(X, Y)
      Y = X * 2.0D0
      END
