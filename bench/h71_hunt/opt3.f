      SUBROUTINE ADDW(N, X, W)
      INTEGER N, I, J
      DOUBLE PRECISION X(N)
      DOUBLE PRECISION, OPTIONAL :: W(:)
C$TRANSLATE KERNEL
      DO 10 I = 1, N
         IF (PRESENT(W)) THEN
            DO 5 J = 1, SIZE(W)
               X(I) = X(I) + W(J) * DBLE(I)
    5       CONTINUE
         END IF
   10 CONTINUE
C$TRANSLATE END KERNEL
      END
      PROGRAM OPT3
      INTERFACE
      SUBROUTINE ADDW(N, X, W)
      INTEGER N
      DOUBLE PRECISION X(N)
      DOUBLE PRECISION, OPTIONAL :: W(:)
      END SUBROUTINE
      END INTERFACE
      DOUBLE PRECISION X(9), W(4)
      X = 1.0D0
      W = (/ 0.5D0, 0.25D0, 2.0D0, -1.0D0 /)
      CALL ADDW(9, X)
      CALL ADDW(9, X, W)
      CALL ADDW(9, X)
      WRITE(*, '(3ES24.16)') X
      END
