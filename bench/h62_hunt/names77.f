C translate-test: translate=--directives=openmp
      PROGRAM NAMES
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=25)
      DIMENSION SUM(N), X(N), INDEX(N), COUNT(N)
      INTEGER SIZE
      SCALE = 2.5D0
      SIGN = -1.0D0
      DIM = 0.25D0
      SIZE = 3
      DO 5 I=1,N
      X(I) = DBLE(I)*0.1D0
      INDEX(I) = MOD(I*7, N) + 1
    5 CONTINUE
C$OMP PARALLEL DO
      DO 10 I=1,N
      SUM(I) = X(I)*SCALE + SIGN*DIM + X(INDEX(I))*DBLE(SIZE)
      COUNT(I) = DMAX1(SUM(I), 0.0D0) + ABS(SIGN)
   10 CONTINUE
      WRITE(*,'(4ES24.16)') SUM, COUNT
      END
