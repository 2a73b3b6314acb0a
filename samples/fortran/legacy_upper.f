C     A FORTRAN 77 program written in upper case throughout, the
C     directives included.  Fortran names are case-insensitive, so
C     the names inside the directives' strings may be spelled in any
C     case: loop variables ("I", "J", and the inames the transforms
C     make from them, "I_INNER"), arrays ("U"), statement ids
C     (ID(SMOOTH) matched by "id:Smooth") and keywords (OUTER_TAG=).
C
      PROGRAM RELAX
      INTEGER N, M
      PARAMETER (N = 600, M = 48)
      DOUBLE PRECISION U(N), V(N), P(M, M), Q(M, M)
      DO 10 I = 1, N
         U(I) = DBLE(MOD(I * 7, 13)) / 13
   10 CONTINUE
      DO 20 J = 1, M
         DO 20 I = 1, M
            P(I, J) = DBLE(I - J) / M
   20 CONTINUE
      CALL SMOOTH(N, U, V)
      CALL CLAMP(M, P, Q)
      WRITE (*, '(A, 1X, ES23.15E3)') ' SUM(V) = ', SUM(V)
      WRITE (*, '(A, 3(1X, ES23.15E3))') ' V(2), V(N/2), V(N-1) = ',
     &   V(2), V(N/2), V(N-1)
      WRITE (*, '(A, 1X, ES23.15E3)') ' SUM(Q) = ', SUM(Q)
      END

C     A three-point average of U into V, with U prefetched into local
C     memory per work group.
      SUBROUTINE SMOOTH(N, U, V)
      INTEGER N
      DOUBLE PRECISION U(N), V(N)
C$TRANSLATE KERNEL SMOOTH
C$TRANSLATE ASSUME("N >= 3")
C$TRANSLATE SPLIT_INAME("I", 16, OUTER_TAG="g.0", INNER_TAG="l.0")
C$TRANSLATE ADD_PREFETCH("U", ["I_INNER"], FETCH_BOUNDING_BOX=True)
C$TRANSLATE SET_ARGUMENT_ORDER("V, U, N")
      DO 10 I = 2, N - 1
         V(I) = (U(I - 1) + 2 * U(I) + U(I + 1)) / 4
   10 CONTINUE
C$TRANSLATE END KERNEL
      V(1) = U(1)
      V(N) = U(N)
      END

C     Q = P clamped to [-1/4, 1/4], mapped in two dimensions; the
C     statement is named with ID(...) and selected by a match
C     expression spelled in another case.
      SUBROUTINE CLAMP(M, P, Q)
      INTEGER M
      DOUBLE PRECISION P(M, M), Q(M, M)
C$TRANSLATE KERNEL CLIPQ
C$TRANSLATE SPLIT_INAME("I", 8, INNER_TAG="l.0", WITHIN="id:Smooth")
C$TRANSLATE TAG_INAMES({"J": "g.1", "I_OUTER": "g.0"})
      DO 40 J = 1, M
         DO 30 I = 1, M
C$TRANSLATE ID(SMOOTH)
            Q(I, J) = MAX(MIN(P(I, J), 0.25D0), -0.25D0)
   30    CONTINUE
   40 CONTINUE
C$TRANSLATE END KERNEL
      END
