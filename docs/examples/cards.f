      SUBROUTINE TWICE(N, X, Y)                                         00000010
      INTEGER N, I                                                      00000020
      DOUBLE PRECISION X(N), Y(N)                                       00000030
C$TRANSLATE KERNEL
      DO 10 I = 1, N                                                    00000050
      Y(I) = X(I) * 2                                                   00000060
   10 CONTINUE                                                          00000070
C$TRANSLATE END KERNEL
      END                                                               00000090
