C translate-test: translate=--directives=openmp,translate
      PROGRAM EQV3
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=20)
      DIMENSION A(N), B(N), C(N), TMP(2), OUT(2), W(N*N), V(N,N)
      EQUIVALENCE (T, A(5))
      EQUIVALENCE (TMP(1), OUT(1)), (W(1), V(1,1))
      DO 5 I=1,N
      A(I) = DBLE(I)
      B(I) = DBLE(I*I)
    5 CONTINUE
      DO 6 I=1,N*N
    6 W(I) = DBLE(I)
C$TRANSLATE KERNEL
      DO 10 I=1,N
      T = B(I)*2.0D0
      C(I) = T + 1.0D0
   10 CONTINUE
C$TRANSLATE END KERNEL
C$TRANSLATE KERNEL
      DO 20 I=1,N
      TMP(1) = B(I) - 1.0D0
      TMP(2) = B(I) + 1.0D0
      B(I) = TMP(1)*TMP(2)
   20 CONTINUE
C$TRANSLATE END KERNEL
C$OMP PARALLEL DO
      DO 30 J=1,N
      DO 30 I=1,N
      V(I,J) = V(I,J) + 1.0D0
   30 CONTINUE
      WRITE(*,'(4ES24.16)') A(5), T, C(N), OUT
      WRITE(*,'(4ES24.16)') B(1), B(N), W(N+2), V(3,4)
      END
