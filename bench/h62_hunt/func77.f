C translate-test: translate=--directives=openmp rtol=1e-13
      PROGRAM FUNC77
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=30)
      DIMENSION X(N), Y(N), Z(N)
      INTEGER ICNT
      COMMON /STAT/ ICNT, TOT
      ICNT = 0
      TOT = 0.0D0
      DO 5 I=1,N
    5 X(I) = DBLE(I-15)*0.2D0
C$OMP PARALLEL DO REDUCTION(+:ICNT,TOT)
      DO 10 I=1,N
      Y(I) = FLX(X(I), X(N+1-I))
     &     + AVG3(X(MAX(I-1,1)), X(I), X(MIN(I+1,N)))
      CALL SHIFT(Y(I), Z(I), I)
      IF (Y(I) .GT. 0.0D0) ICNT = ICNT + 1
      TOT = TOT + Z(I)
   10 CONTINUE
      WRITE(*,'(4ES24.16)') (Y(I), Z(I), I=1,N,7)
      WRITE(*,'(I5, ES24.16)') ICNT, TOT
      END

      DOUBLE PRECISION FUNCTION FLX(A, B)
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      T = A*A - B
      IF (T .LT. 0.0D0) T = -T*0.5D0
      FLX = DSQRT(T) + DSIGN(1.0D0, A-B)
      END

      FUNCTION AVG3(P, Q, R)
      IMPLICIT REAL*8 (A-H,O-Z)
      AVG3 = (P + Q + R) / 3
      RETURN
      END

      SUBROUTINE SHIFT(V, W, K)
      IMPLICIT REAL*8 (A-H,O-Z)
      IF (MOD(K,2) .EQ. 0) THEN
         W = V + 1.0D0
      ELSE
         W = V - 1.0D0
      ENDIF
      RETURN
      END
