C translate-test: translate=--directives=openmp rtol=1e-13
      PROGRAM LEGACY
      IMPLICIT REAL*8 (A-H, O-Z)
      PARAMETER (NMAX = 64, MMAX = 24)
      DIMENSION XX(NMAX, MMAX), YY(NMAX, MMAX)
      COMMON /GRID/ DXG, DYG, NX, NY
      REAL*4 SP(NMAX)
      INTEGER*4 IFLAG(NMAX)
      DATA ALPHA /0.35D0/, BETA /1.25D0/
C     A STATEMENT FUNCTION
      FLUX(U, V) = 0.5D0 * (U * U - V) + ALPHA * DSIGN(1.0D0, U - V)
      NX = 60
      NY = 22
      DXG = 1.0D0 / DFLOAT(NX)
      DYG = 1.0D0 / DBLE(NY)
      DO 10 J = 1, NY
        DO 10 I = 1, NX
          XX(I, J) = DSIN(DFLOAT(I) * DXG * 3.0D0) * DCOS(DBLE(J) * DYG)
          YY(I, J) = 0.0D0
   10 CONTINUE
C$OMP PARALLEL DO PRIVATE(I, XL, XR)
      DO 20 J = 2, NY - 1
        DO 20 I = 2, NX - 1
          XL = XX(I - 1, J)
          XR = XX(I + 1, J)
          YY(I, J) = FLUX(XR, XL) * BETA + DMAX1(XL, XR, 0.1D0)
     &             - DMIN1(XX(I, J - 1), XX(I, J + 1))
     &             + IDINT(XL * 10.0D0)
   20 CONTINUE
C$OMP PARALLEL DO PRIVATE(T)
      DO 30 I = 1, NX
        T = YY(I, NY / 2)
        SP(I) = SNGL(T) * 1.5 + AMAX1(FLOAT(I), 10.0)
        IFLAG(I) = MOD(I, 3) + NINT(T)
        IF (T .GT. 0.5D0) IFLAG(I) = -IFLAG(I)
   30 CONTINUE
      CALL STEP2(XX, YY, NMAX, MMAX)
      S = 0.0D0
      DO 40 J = 1, NY
        DO 40 I = 1, NX
          S = S + YY(I, J) * DFLOAT(I + J)
   40 CONTINUE
      WRITE(*, '(2ES24.16)') S, YY(7, 9)
      WRITE(*, '(4ES16.8)') SP(1), SP(17), SP(33), SP(60)
      WRITE(*, '(10I5)') (IFLAG(I), I = 1, 60, 6)
      END

      SUBROUTINE STEP2(XX, YY, LD, M)
      IMPLICIT REAL*8 (A-H, O-Z)
      DIMENSION XX(LD, *), YY(LD, *)
      COMMON /GRID/ DXG, DYG, NX, NY
C$OMP PARALLEL DO PRIVATE(I, Q)
      DO 50 J = 1, NY
        DO 50 I = 1, NX
          Q = XX(I, J) * DXG + YY(I, J) * DYG
          YY(I, J) = YY(I, J) + Q ** 2 - ABS(Q) ** 1.5D0
   50 CONTINUE
      RETURN
      END
