C translate-test: translate=--directives=openmp
      PROGRAM INTR77
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=33)
      DIMENSION X(N), Y(N), Z(N), W(N)
      REAL*4 S4(N), T4(N)
      INTEGER*8 L8(N)
      INTEGER K1(N), K2(N), K3(N)
      LOGICAL LG(N)
      DO 5 I=1,N
      X(I) = DBLE(I-17)*0.37D0
      S4(I) = REAL(I-16)*0.3
    5 CONTINUE
C$OMP PARALLEL DO PRIVATE(T, KK)
      DO 10 I=1,N
      T = X(I)
      Y(I) = 0.1*T + 1.0E-1 + 0.3D0*T + DPROD(S4(I), 0.7)
      Z(I) = DMOD(T, 1.3D0) + AMOD(S4(I), 0.7) + DNINT(T) + DINT(T)
     &     + ANINT(S4(I)) + AINT(S4(I))
      KK = T*2.7D0
      K1(I) = KK + NINT(T) + IDNINT(T) + MAX0(I,7) + MIN0(I,9)
     &      + MAX1(T, 0.5D0) + IFIX(S4(I)) + INT(T) + IDINT(-T)
      K2(I) = (I-17)/4 + MOD(I-17,4) + (I-17)**2 + 2**(I-30)
     &      + (-2)**MOD(I,5) + ISIGN(I,17-I) + IDIM(I,10)
      K3(I) = IABS(I-20) + I/3*3 + MOD(-I,3) + IAND(I,5) + IOR(I,2)
      W(I) = T**(-2) + DSIGN(T,-1.0D0) + SIGN(T, DBLE(I-10))
     &     + DSQRT(DABS(T)) + DEXP(-DABS(T)) + DLOG(1.0D0+DABS(T))
     &     + DLOG10(2.0D0+T*T) + DATAN2(T,1.0D0) + DMAX1(T,0.0D0)
     &     + DMIN1(T,0.0D0) + AMAX0(I,5) + AMIN0(I,5) + DFLOAT(I)
     &     + DBLE(FLOAT(I)/3.0) + DSINH(T/8) + DCOSH(T/8) + DTANH(T)
     &     + DASIN(T/20) + DACOS(T/20) + DATAN(T) + DTAN(T/20)
      T4(I) = ALOG(1.0+ABS(S4(I))) + ALOG10(2.0+S4(I)**2)
     &      + SQRT(ABS(S4(I))) + EXP(-ABS(S4(I))) + SNGL(T)
     &      + AMAX1(S4(I),0.1) + AMIN1(S4(I),0.2)
     &      + CABS(CMPLX(S4(I),1.0))
      L8(I) = INT(I,8)*3000000000_8 + I**3
      LG(I) = (T .GT. 0.0D0) .EQV. (MOD(I,2) .EQ. 0)
   10 CONTINUE
      WRITE(*,'(3ES24.16)') (Y(I), Z(I), W(I), I=1,N,4)
      WRITE(*,'(11I8)') (K1(I), I=1,N,3)
      WRITE(*,'(11I8)') (K2(I), I=1,N,3)
      WRITE(*,'(11I8)') (K3(I), I=1,N,3)
      WRITE(*,'(4ES16.8)') (T4(I), I=1,N,4)
      WRITE(*,'(3I22)') (L8(I), I=1,N,5)
      WRITE(*,'(33L2)') LG
      END
