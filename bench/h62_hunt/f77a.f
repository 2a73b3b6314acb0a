C translate-test: translate=--directives=openmp
      PROGRAM F77A
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=40, M=2*N-3, NH=N/2)
      PARAMETER (PI=3.141592653589793D0, TWOPI=2.0D0*PI)
      COMMON /FLD/ U(N,N), V(N,N)
      COMMON W(M), IW(M)
      DIMENSION R(N)
      DATA R /N*0.0D0/
      DATA C1, C2 /0.1, 0.1D0/
      DO 10 J=1,N
      DO 10 I=1,N
      U(I,J) = DSIN(TWOPI*DBLE(I)/DBLE(N))*DCOS(DBLE(J)*0.1D0)
      V(I,J) = FLOAT(I-J)*0.3
   10 CONTINUE
      DO 15 I=1,M
      W(I) = 0.0D0
      IW(I) = I - NH
   15 CONTINUE
C$OMP PARALLEL DO PRIVATE(I,T,K)
      DO 20 J=2,N-1
      DO 20 I=2,N-1
      T = 0.25D0*(U(I-1,J)+U(I+1,J)+U(I,J-1)+U(I,J+1))
      K = (I-NH)/3
      V(I,J) = T*C1 + DABS(T)*C2 + DBLE(K) + DBLE(MOD(I-NH,7))
     &   + SIGN(1.5D0,T) + DIM(T,0.1D0) + DMAX1(T,0.2D0,V(I,J))
     &   + AMIN1(1.0,2.5) + T**2 + DABS(T)**0.5D0 + 2.0D0**(I-NH)
   20 CONTINUE
C$OMP PARALLEL DO
      DO 30 I=1,M
      IW(I) = IW(I)/4 + MOD(IW(I),5)*ISIGN(3,IW(I)) + IDIM(IW(I),2)
      W(I) = DBLE(IW(I))/3 + IW(I)/3
   30 CONTINUE
      CALL COLS(U, N, N)
      DO 40 J=1,N,5
      CALL SCAL(N, 0.5D0, U(1,J), 1)
   40 CONTINUE
      S = 0.0D0
      DO 50 J=1,N
      DO 50 I=1,N
      S = S + U(I,J)*DBLE(I) + V(I,J)
   50 CONTINUE
      WRITE(*,'(3ES24.16)') S, V(3,4), V(N-1,N-2)
      WRITE(*,'(4ES24.16)') (W(I), I=1,M,19)
      WRITE(*,'(10I6)') (IW(I), I=1,M,7)
      END

      SUBROUTINE COLS(A, LDA, NC)
      IMPLICIT REAL*8 (A-H,O-Z)
      DIMENSION A(LDA,*)
      COMMON /FLD/ U(40,40), V(40,40)
C$OMP PARALLEL DO PRIVATE(I)
      DO 60 J=1,NC
      DO 60 I=1,LDA
      A(I,J) = A(I,J) + V(I,J)*1.0D-2
   60 CONTINUE
      RETURN
      END

      SUBROUTINE SCAL(N, DA, DX, INCX)
      DOUBLE PRECISION DA, DX(*)
      INTEGER I, INCX, N
C$OMP PARALLEL DO
      DO 70 I=1,N
      DX(I) = DA*DX(I)
   70 CONTINUE
      RETURN
      END
