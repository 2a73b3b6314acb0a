C translate-test: translate=--directives=openmp,translate rtol=1e-13
      PROGRAM LINPK
      DOUBLE PRECISION A(40,40), B(40), X(80), Y(80), T
      INTEGER I, J, N, LDA
      N = 30
      LDA = 40
      DO 10 J = 1, N
         DO 10 I = 1, N
            A(I,J) = DBLE(MOD(I*J,7)) + 1.0D0/DBLE(I+J)
   10 CONTINUE
      DO 20 I = 1, 80
         X(I) = DBLE(I)*0.5D0
         Y(I) = 1.0D0
   20 CONTINUE
      CALL DMXPY(N, B, N, LDA, X, A)
      CALL DAXPY(N, 2.0D0, X, 2, Y, 1)
      CALL DAXPY(N, -1.0D0, X(2), 1, Y(41), 1)
      CALL DSCAL(N-1, 0.5D0, A(2,3), 1)
      CALL COLOP(A, LDA, N)
      T = 0.0D0
      DO 30 I = 1, N
         T = T + B(I) + Y(I) + Y(40+I) + A(I,3) + A(I,N)
   30 CONTINUE
      WRITE(*,'(3ES24.16)') T, B(7), Y(45)
      END

      SUBROUTINE DAXPY(N, DA, DX, INCX, DY, INCY)
      DOUBLE PRECISION DX(1), DY(1), DA
      INTEGER I, INCX, INCY, IX, IY, N
      IF (N .LE. 0) RETURN
      IF (INCX .EQ. 1 .AND. INCY .EQ. 1) GO TO 20
      IX = 1
      IY = 1
      DO 10 I = 1, N
         DY(IY) = DY(IY) + DA*DX(IX)
         IX = IX + INCX
         IY = IY + INCY
   10 CONTINUE
      RETURN
   20 CONTINUE
C$OMP PARALLEL DO
      DO 30 I = 1, N
         DY(I) = DY(I) + DA*DX(I)
   30 CONTINUE
      RETURN
      END

      SUBROUTINE DSCAL(N, DA, DX, INCX)
      DOUBLE PRECISION DA, DX(1)
      INTEGER I, INCX, N
C$OMP PARALLEL DO
      DO 10 I = 1, N
         DX(I) = DA*DX(I)
   10 CONTINUE
      RETURN
      END

      SUBROUTINE DMXPY(N1, Y, N2, LDM, X, M)
      DOUBLE PRECISION Y(1), X(1), M(LDM,1)
      INTEGER N1, N2, LDM, I, J
C$TRANSLATE KERNEL
      DO 20 I = 1, N1
         Y(I) = 0.0D0
         DO 10 J = 1, N2
            Y(I) = Y(I) + X(J)*M(I,J)
   10    CONTINUE
   20 CONTINUE
C$TRANSLATE END KERNEL
      RETURN
      END

      SUBROUTINE COLOP(A, LDA, N)
      DOUBLE PRECISION A(LDA,*)
      INTEGER LDA, N, J
      DO 10 J = 1, N, 7
         CALL DSCAL(N, 1.5D0, A(1,J), 1)
   10 CONTINUE
      RETURN
      END
