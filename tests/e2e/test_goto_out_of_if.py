"""End to end: a GO TO out of an IF construct to a label further on in a block around it,
inside the same DO loop (h85): ``IF (T .LT. 0) THEN; ...; GO TO 50; END IF; ...; 50 C(I) =
...``.  The statements built until the label's run only where the branch was not taken (a
guard, as a CYCLE's, that ends at the label); where they write what the branch's condition
reads, the condition is kept in a private flag (``_tr_skip``) at the GO TO.  Also from an
inner IF in an ELSE branch, and in a region's straight-line code over a whole loop.  Before:
"GO TO 50 is not supported inside a kernel region"; a branch out of the DO loop stays
refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample

OUT_OF_LOOP = """\
      SUBROUTINE S(N, A)
      INTEGER N, I
      DOUBLE PRECISION A(N)
!$translate kernel s1
      DO 10 I = 1, N
        IF (A(I) .LT. 0.0D0) THEN
          GO TO 20
        END IF
        A(I) = 1.0D0
   10 CONTINUE
   20 CONTINUE
!$translate end kernel
      END
"""


def test_goto_out_of_if_constructs_matches(tmp_path: Path) -> None:
    check_sample(REPO / "bench" / "h85_hunt" / "goto2.f", tmp_path)
    rewritten = (tmp_path / "out" / "goto2.f").read_text()
    assert "!$OMP PARALLEL DO" not in rewritten   # the OpenMP loop was translated too
    host = (tmp_path / "out" / "goto2.cl").read_text()
    assert "_tr_skip" in host


def test_goto_out_of_the_loop_is_still_refused(tmp_path: Path) -> None:
    (tmp_path / "s.f").write_text(OUT_OF_LOOP)
    done = subprocess.run([sys.executable, "-m", "translator.cli", "s.f", "-o", "out"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(
        "s.f:7:11: error: GO TO 20 is not supported inside a kernel region: only a GO TO the "
        "CONTINUE that ends the innermost DO loop (a CYCLE) is, or one to a label further on "
        "in a block around it, inside the same DO loop"), done.stderr
