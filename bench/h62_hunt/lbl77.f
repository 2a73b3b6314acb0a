C translate-test: translate=--directives=openmp,translate
      PROGRAM LBL77
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      IMPLICIT INTEGER (I-N)
      PARAMETER (N=30)
      DIMENSION A(N,N), B(N), C(N)
      INTEGER*2 K2(N)
      LOGICAL*1 L1(N)
      COMPLEX*16 Z(N)
      DO 5 J=1,N
      DO 5 I=1,N
    5 A(I,J) = DBLE(I*J - 40)*0.1D0
C$TRANSLATE KERNEL
      DO 10, I=1,N
      B(I) = 0.0D0
      IF (A(I,3) .LT. 0.0D0) GO TO 10
      B(I) = DSQRT(A(I,3))
   10 CONTINUE
C$TRANSLATE END KERNEL
      IAFTER = I
C$TRANSLATE KERNEL
      DO 20 J=N,1,-1
      DO 20 I=1,N,2
   20 A(I,J) = A(I,J) + DBLE(J)
C$TRANSLATE END KERNEL
      JAFTER = J
      IAFT2 = I
C$OMP PARALLEL DO PRIVATE(X)
      DO 30 I=1,N
      X = B(I) + A(I,I)
      K2(I) = I*1000
      L1(I) = X .GT. 1.0D0
      Z(I) = DCMPLX(X, -X) * (0.5D0, 1.5D0)
      C(I) = X*X
   30 CONTINUE
      WRITE(*,'(3I5)') IAFTER, JAFTER, IAFT2
      WRITE(*,'(3ES24.16)') (B(I), C(I), A(I,7), I=1,N,4)
      WRITE(*,'(10I7)') K2
      WRITE(*,'(30L2)') L1
      WRITE(*,'(4ES24.16)') Z(3), Z(N)
      END
