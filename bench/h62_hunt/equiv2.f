C translate-test: translate=--directives=openmp,translate
      PROGRAM EQV2
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=20)
      DIMENSION A(N), B(N), W(N*N), V(N,N)
      EQUIVALENCE (S, A(5))
      EQUIVALENCE (W(1), V(1,1))
      DO 5 I=1,N
      A(I) = DBLE(I)
      B(I) = 0.0D0
    5 CONTINUE
      DO 6 I=1,N*N
    6 W(I) = DBLE(I)
C$TRANSLATE KERNEL
      DO 10 I=1,N
      A(I) = A(I) + S
   10 CONTINUE
C$TRANSLATE END KERNEL
C$TRANSLATE KERNEL
      DO 20 J=1,N
      DO 20 I=1,N
      V(I,J) = V(I,J) + 1.0D0
   20 CONTINUE
C$TRANSLATE END KERNEL
      WRITE(*,'(4ES24.16)') A, S
      WRITE(*,'(4ES24.16)') W(1), W(N+2), W(N*N), V(3,4)
      END
