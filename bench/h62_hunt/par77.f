C translate-test: translate=--directives=openmp
      PROGRAM PAR77
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=17, NH=N/2, NM=-N/4, R=N/2.0, C=0.1, THIRD=1.0D0/3)
      PARAMETER (E=1.0E-1*3, P2=2**10, Q=(N-1)/2*2.5)
      COMPLEX*16 Z(N), W(N)
      COMPLEX ZS(N)
      DIMENSION X(N), Y(N)
      INTEGER K(N)
      DATA X /5*1.0, 4*2.0D0, 8*0.3/
      DO 5 I=1,N
      Z(I) = DCMPLX(DBLE(I)*0.3D0, 1.0D0/DBLE(I))
      ZS(I) = CMPLX(REAL(I), -0.5*REAL(I))
    5 CONTINUE
C$OMP PARALLEL DO
      DO 10 I=1,N
      Y(I) = X(I)*R + C*DBLE(I) + THIRD + E + P2 + Q + DBLE(NH + NM)
      K(I) = NH*I + NM - I/NH
      W(I) = Z(I)*DCONJG(Z(I)) + Z(I)/Z(N+1-I) + Z(I)**2
     &     + CDABS(Z(I)) + CDSQRT(Z(I)) + Z(I)**3
      ZS(I) = ZS(I)/CMPLX(1.5, REAL(I)) + ZS(I)*(0.0,1.0)
   10 CONTINUE
      WRITE(*,'(3ES24.16)') Y
      WRITE(*,'(9I6)') K
      WRITE(*,'(2ES24.16)') W
      WRITE(*,'(2ES16.8)') ZS
      END
