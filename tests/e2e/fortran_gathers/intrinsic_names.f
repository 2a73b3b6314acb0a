C translate-test: translate=--directives=openmp
C     A gather in a FORTRAN 77 program whose variables are named like the intrinsics
C     the rewritten call would use (SIZE, MIN, INT): the scans' counts use the declared
C     extents, so the rewritten source still compiles.
      PROGRAM INAMES
      IMPLICIT REAL*8 (A-H,O-Z)
      PARAMETER (N=40)
      DIMENSION S(N), X(N), INDEX(N)
      INTEGER SIZE, MIN, INT
      SIZE = 3
      MIN = 2
      INT = 5
      DO 5 I=1,N
      X(I) = DBLE(I)*0.5D0
      INDEX(I) = MOD(I*7, N) + 1
    5 CONTINUE
C$OMP PARALLEL DO
      DO 10 I=1,N
      S(I) = X(I) + X(INDEX(I))*DBLE(SIZE) - DBLE(MIN*INT)
   10 CONTINUE
      WRITE(*,'(3ES24.16)') S(1), S(17), S(N)
      END
