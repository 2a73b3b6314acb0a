C translate-test: translate=--directives=openmp,openacc,translate
C Gathers as FORTRAN 77 codes write them: assumed-size dummies X(*), legacy X(1) dummies,
C CSR SpMV through ROWPTR/COL, a permutation, a gather under IF (J .GT. 0).
      SUBROUTINE SPMV(N, ROWPTR, COL, A, X, Y)
      INTEGER N, ROWPTR(*), COL(*)
      DOUBLE PRECISION A(*), X(*), Y(*)
      INTEGER I, K
      DOUBLE PRECISION S
!$OMP PARALLEL DO PRIVATE(K, S)
      DO 10 I = 1, N
        S = 0.0D0
        DO 20 K = ROWPTR(I), ROWPTR(I+1) - 1
          S = S + A(K) * X(COL(K))
   20   CONTINUE
        Y(I) = S
   10 CONTINUE
      END

      SUBROUTINE PERMUT(N, P, X, Y)
      INTEGER N, P(1)
      DOUBLE PRECISION X(1), Y(N)
      INTEGER I
!$OMP PARALLEL DO
      DO 10 I = 1, N
        Y(I) = X(P(I))
   10 CONTINUE
      END

      SUBROUTINE NBRSUM(N, NB, X, Y)
      INTEGER N, NB(2, N)
      DOUBLE PRECISION X(0:N), Y(N)
      INTEGER I, J, L
!$OMP PARALLEL DO PRIVATE(J, L)
      DO 10 I = 1, N
        Y(I) = 0.0D0
        DO 20 L = 1, 2
          J = NB(L, I)
          IF (J .GT. 0) Y(I) = Y(I) + X(J)
   20   CONTINUE
   10 CONTINUE
      END

      PROGRAM LEGCY1
      INTEGER NMAX
      PARAMETER (NMAX = 500)
      INTEGER ROWPTR(NMAX + 1), COL(5 * NMAX), P(NMAX), NB(2, NMAX)
      DOUBLE PRECISION A(5 * NMAX), X(0:NMAX), Y(NMAX), Z(NMAX), S
      INTEGER I, K, NNZ, LEN, IT
      NNZ = 0
      DO 10 I = 1, NMAX
        ROWPTR(I) = NNZ + 1
        LEN = 1 + MOD(I * 3, 4)
        DO 11 K = 1, LEN
          NNZ = NNZ + 1
          COL(NNZ) = 1 + MOD(I * 17 + K * 101, NMAX)
          A(NNZ) = 1.0D0 / (K + MOD(I, 3))
   11   CONTINUE
        P(I) = 1 + MOD(I * 7, NMAX)
        NB(1, I) = I - 1
        NB(2, I) = MOD(I + 1, NMAX + 1)
        X(I) = 1.0D0 + MOD(I, 10) * 0.1D0
   10 CONTINUE
      ROWPTR(NMAX + 1) = NNZ + 1
      X(0) = 0.0D0
      DO 30 IT = 1, 5
        CALL SPMV(NMAX, ROWPTR, COL, A, X(1), Y)
        CALL PERMUT(NMAX, P, Y, Z)
        CALL NBRSUM(NMAX, NB, X, Y)
        S = 0.0D0
        DO 31 I = 1, NMAX
          S = S + Z(I) * Z(I) + Y(I)
   31   CONTINUE
        DO 32 I = 1, NMAX
          X(I) = Z(I) / SQRT(S)
   32   CONTINUE
   30 CONTINUE
      WRITE(*, '(4ES24.16)') S, X(1), X(NMAX / 2), X(NMAX)
      END
