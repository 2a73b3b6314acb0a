C     A FORTRAN 77 program in fixed form: labeled DO loops ending in
C     CONTINUE, implicit typing, a COMMON block and PARAMETER constants.
C
C     In fixed form the directive sentinel is C$TRANSLATE (or
C     *$TRANSLATE, or !$TRANSLATE) starting in column 1.  Directive
C     names are case-insensitive; the strings inside them name loop
C     variables, which the translator always spells in lower case.
C
      PROGRAM LEGACY
      INTEGER N, M
      PARAMETER (N = 400, M = 3)
      DOUBLE PRECISION A(N), B(N), C(N), W(N, M)
      COMMON /WORK/ A, B, C
      DO 10 I = 1, N
         A(I) = DBLE(I) / N
         B(I) = DSQRT(DBLE(I))
         DO 10 J = 1, M
            W(I, J) = DBLE(J) / (I + J)
   10 CONTINUE
      CALL DAXPBY(N, 2.0D0, 0.5D0)
      CALL WSUM(N, M, W)
      WRITE (*, '(A, 1X, ES23.15E3)') ' CHECKSUM = ', SUM(C)
      WRITE (*, '(A, 3(1X, ES23.15E3))') ' C(1), C(N/2), C(N) = ',
     &   C(1), C(N/2), C(N)
      END

C     C = ALPHA*A + BETA*B on the arrays of the COMMON block.
      SUBROUTINE DAXPBY(N, ALPHA, BETA)
      INTEGER N
      DOUBLE PRECISION ALPHA, BETA
      DOUBLE PRECISION A(400), B(400), C(400)
      COMMON /WORK/ A, B, C
C$TRANSLATE KERNEL DAXPBY
C$TRANSLATE SPLIT_INAME("i", 64, outer_tag="g.0", inner_tag="l.0")
      DO 20 I = 1, N
         C(I) = ALPHA * A(I) + BETA * B(I)
   20 CONTINUE
C$TRANSLATE END KERNEL
      RETURN
      END

C     Adds the weighted row sums of W to C.  W is an assumed-size array:
C     the translator takes its extent from the loop bounds.  T is a
C     scratch variable (implicitly DOUBLE PRECISION here) private to
C     each row.
      SUBROUTINE WSUM(N, M, W)
      IMPLICIT DOUBLE PRECISION (A-H, O-Z)
      INTEGER N, M
      DIMENSION W(N, *)
      DOUBLE PRECISION A(400), B(400), C(400)
      COMMON /WORK/ A, B, C
*$TRANSLATE KERNEL WSUM
*$TRANSLATE SPLIT_INAME("i", 32, outer_tag="g.0", inner_tag="l.0")
      DO 40 I = 1, N
         T = 0
         DO 30 J = 1, M
            T = T + J * W(I, J)
   30    CONTINUE
         C(I) = C(I) + T
   40 CONTINUE
*$TRANSLATE END KERNEL
      END
