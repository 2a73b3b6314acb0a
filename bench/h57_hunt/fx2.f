C translate-test: translate=--directives=openmp rtol=1e-13
      PROGRAM FXOMP
      IMPLICIT NONE
      INTEGER NX, NY
      PARAMETER (NX = 33, NY = 21)
      DOUBLE PRECISION U(0:NX+1,0:NY+1), V(0:NX+1,0:NY+1), F(NX,NY)
      DOUBLE PRECISION DX, DY, OMEGA, ERR, ERRMAX, RES
      INTEGER I, J, IT, IMAX, NEG
      DX = 1.0D0 / DBLE(NX + 1)
      DY = 1.0D0 / DBLE(NY + 1)
      OMEGA = 0.8
      DO 20 J = 0, NY + 1
         DO 10 I = 0, NX + 1
            U(I,J) = 0.0D0
            V(I,J) = 0.0D0
   10    CONTINUE
   20 CONTINUE
      DO 40 J = 1, NY
         DO 30 I = 1, NX
            F(I,J) = -2.0 * (DBLE(I)*DX) * (1.0D0 - DBLE(J)*DY)
     &               + 0.1 * SIN(0.3D0 * I)
   30    CONTINUE
   40 CONTINUE
      DO 100 IT = 1, 4
C$OMP PARALLEL DO PRIVATE(I)
         DO 60 J = 1, NY
            DO 50 I = 1, NX
               V(I,J) = U(I,J)
   50       CONTINUE
   60    CONTINUE
C$OMP END PARALLEL DO
         ERR = 0.0D0
         ERRMAX = 0.0D0
*$OMP PARALLEL DO PRIVATE(I, RES)
!$OMP+REDUCTION(+:ERR) REDUCTION(MAX:ERRMAX)
         DO 80 J = 1, NY
            DO 70 I = 1, NX
               RES = (V(I-1,J) + V(I+1,J) - 2.0*V(I,J)) / (DX*DX)
     &             + (V(I,J-1) + V(I,J+1) - 2.0*V(I,J)) / (DY*DY)
     &             - F(I,J)
               U(I,J) = V(I,J) + OMEGA * RES
     &                / (2.0/(DX*DX) + 2.0/(DY*DY))
               ERR = ERR + RES**2
               ERRMAX = DMAX1(ERRMAX, DABS(RES))
   70       CONTINUE
   80    CONTINUE
         WRITE(*, '(I3, 2ES24.16)') IT, DSQRT(ERR), ERRMAX
  100 CONTINUE
      NEG = 0
      IMAX = 0
C$OMP PARALLEL DO PRIVATE(I) REDUCTION(+:NEG) REDUCTION(MAX:IMAX)
      DO 120 J = 1, NY
         DO 110 I = 1, NX
            IF (U(I,J) .LT. 0.0D0) NEG = NEG + 1
            IMAX = MAX0(IMAX, NINT(U(I,J) * 1.0D4) + MOD(I*J, 7))
  110    CONTINUE
  120 CONTINUE
      WRITE(*, '(2I8, ES24.16)') NEG, IMAX, U(NX/2, NY/2)
      END
