C translate-test: translate=--directives=openacc rtol=1e-13
      PROGRAM ACCCOM
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=40)
      COMMON /GRID/ X(N), DX
      COMMON /FLD/ U(N), V(N)
      DX = 0.5D0
      DO 5 I=1,N
      X(I) = DBLE(I)*DX
      U(I) = DSIN(X(I))
      V(I) = 0.0D0
    5 CONTINUE
!$ACC DATA COPYIN(/GRID/) COPY(/FLD/)
      DO 30 IT=1,3
!$ACC PARALLEL LOOP
      DO 10 I=2,N-1
      V(I) = (U(I+1) - U(I-1))/(2.0D0*DX) + X(I)*1.0D-3
   10 CONTINUE
!$ACC PARALLEL LOOP
      DO 20 I=2,N-1
      U(I) = U(I) + 0.1D0*V(I)
   20 CONTINUE
   30 CONTINUE
!$ACC END DATA
      WRITE(*,'(4ES24.16)') U(2), U(N/2), V(3), V(N-1)
      END
