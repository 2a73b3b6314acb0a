C translate-test: translate=--directives=openmp,translate rtol=1e-12
      PROGRAM LU77
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (LDA=24, N=20)
      DIMENSION A(LDA,LDA), B(0:N,-1:3)
      DO 10 J=1,N
      DO 10 I=1,N
      A(I,J) = 1.0D0/DBLE(I+J-1)
      IF (I.EQ.J) A(I,J) = A(I,J) + DBLE(N)
   10 CONTINUE
      DO 30 K=1,N-1
      T = -1.0D0/A(K,K)
      CALL DSCAL(N-K, T, A(K+1,K))
      CALL UPDT(A(K,K), LDA, N-K+1)
   30 CONTINUE
C$TRANSLATE KERNEL
      DO 40 J=-1,3
      DO 40 I=0,N
      B(I,J) = DBLE(I*10+J)
   40 CONTINUE
C$TRANSLATE END KERNEL
C$TRANSLATE KERNEL
      DO 50 I=1,5
      B(I,0) = -1.0D0
   50 CONTINUE
C$TRANSLATE END KERNEL
      IZ = I
      S = 0.0D0
      DO 60 J=1,N
      DO 60 I=1,N
      S = S + A(I,J)*DBLE(I-J)
   60 CONTINUE
      WRITE(*,'(3ES24.16)') S, A(N,N), A(3,7)
      WRITE(*,'(3ES24.16,I4)') B(0,-1), B(N,3), B(7,1), IZ
      END

      SUBROUTINE DSCAL(N, DA, DX)
      DOUBLE PRECISION DA, DX(*)
C$OMP PARALLEL DO
      DO 10 I=1,N
      DX(I) = DA*DX(I)
   10 CONTINUE
      END

      SUBROUTINE UPDT(B, LDB, M)
      IMPLICIT REAL*8 (A-H,O-Z)
      DIMENSION B(LDB,*)
C$OMP PARALLEL DO PRIVATE(I)
      DO 20 J=2,M
      DO 20 I=2,M
      B(I,J) = B(I,J) + B(I,1)*B(1,J)
   20 CONTINUE
      END
