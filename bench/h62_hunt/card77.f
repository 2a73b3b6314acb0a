C translate-test: translate=--directives=openmp
      PROGRAM CARD                                                      00000010
      IMPLICIT DOUBLEPRECISION(A-H,O-Z)                                 00000020
      DIMENSION X(20),Y(20)                                             00000030
      DO 5 I=1,20                                                       00000040
      X(I)=DBLE(I)                                                      00000050
    5 Y(I)=0.0D0                                                        00000060
C$OMP PARALLEL DO
      DO10I=1,20                                                        00000080
      Y(I) = X(I) * 2                                                   00000090
     1       + X(I)                                                     00000100
     2       * 3.0D0                                                    00000110
   10 CONTINUE                                                          00000120
C$OMP PARALLEL DO
      DO 20 I = 1 , 2 0                                                 00000140
      Y(I) = Y(I) + X(I) * 1                                            00000150
   20 CONTINUE                                                          00000160
      WRITE(*,'(4ES24.16)') Y                                           00000170
      END                                                               00000180
