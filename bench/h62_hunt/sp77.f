C translate-test: translate=--directives=openmp rtol=1e-6
      PROGRAM SP77
      PARAMETER (N=41)
      REAL A(N), B(N), C(N), Y(N), Z(N)
      DOUBLE PRECISION D(N), E(N)
      DO 5 I=1,N
      A(I) = SIN(FLOAT(I))*3.7
      B(I) = COS(FLOAT(I)*0.3)/7.1
      C(I) = FLOAT(I)/13.0
      D(I) = DBLE(A(I))*1.1D0
    5 CONTINUE
C$OMP PARALLEL DO
      DO 10 I=1,N
      Y(I) = A(I)*B(I) + C(I)
      Z(I) = A(I)*0.1 + C(I)/3.0 - B(I)**2 + A(I)**3 + 1.0E-1*I
      E(I) = D(I)*0.1 + A(I)*D(I) + 0.1D0*A(I) + DBLE(0.1)
     &     + D(I)**1.5 + 2.0**(-I) + A(I)**0.5
   10 CONTINUE
      WRITE(*,'(4ES16.8)') (Y(I), Z(I), I=1,N)
      WRITE(*,'(4ES24.16)') E
      END
