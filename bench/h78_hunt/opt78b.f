C     fixed form: a callee passed two optionals of the region's procedure,
C     and a third tested in the region (the call's conditions pass column 72)
      MODULE SWEEPS
      CONTAINS
      SUBROUTINE ACCUM(V, WEIGHT, OFFSET)
      DOUBLE PRECISION V, WEIGHT, OFFSET
      OPTIONAL WEIGHT, OFFSET
      IF (PRESENT(WEIGHT)) V = V * WEIGHT
      IF (PRESENT(OFFSET)) THEN
         V = V + OFFSET
      ELSE
         V = V - 1.0D0
      END IF
      END SUBROUTINE
      SUBROUTINE SWEEP(N, X, WEIGHTS, OFFSETS, FACTOR)
      INTEGER N, I
      DOUBLE PRECISION X(N), WEIGHTS(N), OFFSETS(N), FACTOR
      OPTIONAL WEIGHTS, OFFSETS, FACTOR
c$translate kernel sweep_k
      DO 10 I = 1, N
         IF (PRESENT(WEIGHTS) .AND. PRESENT(OFFSETS)) THEN
            CALL ACCUM(X(I), WEIGHTS(I), OFFSETS(I))
         ELSE IF (PRESENT(WEIGHTS)) THEN
            CALL ACCUM(X(I), WEIGHTS(I))
         ELSE IF (PRESENT(OFFSETS)) THEN
            CALL ACCUM(X(I), OFFSET=OFFSETS(I))
         ELSE
            CALL ACCUM(X(I))
         END IF
         IF (PRESENT(FACTOR)) X(I) = X(I) * FACTOR
   10 CONTINUE
c$translate end kernel
      END SUBROUTINE
      END MODULE
      PROGRAM OPT78B
      USE SWEEPS
      INTEGER I
      DOUBLE PRECISION X(11), W(11), O(11)
      DO 20 I = 1, 11
         X(I) = DBLE(I) * 0.75D0
         W(I) = 1.0D0 / DBLE(I)
         O(I) = DBLE(MOD(I, 4)) - 1.5D0
   20 CONTINUE
      CALL SWEEP(11, X)
      CALL SWEEP(11, X, W)
      WRITE(*, '(3ES24.16)') X
      CALL SWEEP(11, X, OFFSETS=O, FACTOR=0.5D0)
      CALL SWEEP(11, X, W, O)
      WRITE(*, '(3ES24.16)') X
      CALL SWEEP(11, X, W, FACTOR=-2.0D0)
      CALL SWEEP(11, X, W, O, 1.5D0)
      CALL SWEEP(11, X, FACTOR=3.0D0)
      WRITE(*, '(3ES24.16)') X
      END
