C translate-test: translate=--directives=openmp,translate
      PROGRAM COM2
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=16)
      COMMON /ST/ P(N), Q(N), R(N)
      COMMON /PAR/ ALPHA, NSTEP
      COMMON X(N), Y(N)
      ALPHA = 0.25D0
      NSTEP = 3
      DO 5 I=1,N
      P(I) = DBLE(I)
      Q(I) = DBLE(N-I)
      X(I) = 1.0D0/DBLE(I)
    5 CONTINUE
      CALL INIT
C$OMP PARALLEL DO
      DO 10 I=1,N
      CALL UPD(I)
   10 CONTINUE
      CALL FLAT(N)
      CALL BLANK
      WRITE(*,'(4ES24.16)') R, Y
      END

      SUBROUTINE INIT
      IMPLICIT REAL*8 (A-H,O-Z)
      COMMON /ST/ P(16), Q(16), R(16)
C$OMP PARALLEL DO
      DO 10 I=1,16
      R(I) = 0.0D0
   10 CONTINUE
      END

      SUBROUTINE UPD(I)
      IMPLICIT REAL*8 (A-H,O-Z)
      COMMON /ST/ P(16), Q(16), R(16)
      COMMON /PAR/ ALPHA, NSTEP
      R(I) = P(I)*ALPHA + Q(I)*DBLE(NSTEP)
      END

      SUBROUTINE FLAT(N)
      IMPLICIT REAL*8 (A-H,O-Z)
      COMMON /ST/ S(48)
C$TRANSLATE KERNEL
      DO 10 I=1,N
      S(2*N+I) = S(2*N+I) + S(I)*S(N+I)
   10 CONTINUE
C$TRANSLATE END KERNEL
      END

      SUBROUTINE BLANK
      COMMON // XX(16), YY(16)
      DOUBLE PRECISION XX, YY
C$OMP PARALLEL DO
      DO 10 I=1,16
      YY(I) = XX(I)*2.0D0
   10 CONTINUE
      END
