C translate-test: translate=--directives=openmp
      PROGRAM CARD2
      IMPLICIT DOUBLEPRECISION(A-H,O-Z)
      DIMENSION X(20),Y(20)
      DO 5 I=1,20
      X(I)=DBLE(I)
    5 Y(I)=0.0D0
C$OMP PARALLEL DO
      DO 10 I=1,20
      Y(I) = X(I) * 2                                                   00000090
   10 CONTINUE
      WRITE(*,'(4ES24.16)') Y
      END
