"""Fixed-form lines longer than 72 columns (h62 differential hunt: card images with sequence
numbers in columns 73-80).  gfortran ignores what follows column 72 unless the program is
compiled with ``-ffixed-line-length-N``; the translator read it as code, and blanks do not
count in fixed form: ``Y(I) = X(I) * 2`` with ``00000090`` in columns 73-80 was translated as
``X(I) * 200000090``, exit 0 and every value wrong (a declaration line with a number there
was a syntax error).  Now a fixed-form line is cut at column 72 as gfortran cuts it, with a
``line-truncation`` warning at the first line that loses code, and ``--fixed-line-length=N``
(``none``) reads the file as ``-ffixed-line-length-N`` does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.e2e.harness import REPO, check_sample


def _card(rows: list[str]) -> str:
    """`rows` as card images: each statement line numbered in columns 73-80."""
    return "".join((row if row.startswith("C") else row.ljust(72) + f"{10 * k:08d}") + "\n"
                   for k, row in enumerate(rows, start=1))


CARDS = _card([
    "C translate-test: translate=--directives=openmp",
    "      PROGRAM CARDS",
    "      IMPLICIT DOUBLE PRECISION (A-H,O-Z)",
    "      PARAMETER (N = 20)",
    "      DIMENSION X(N), Y(N)",
    "      DO 5 I = 1, N",
    "      X(I) = DBLE(I)",
    "    5 Y(I) = 0.0D0",
    "C$OMP PARALLEL DO",
    "      DO 10 I = 1, N",
    "      Y(I) = X(I) * 2",
    "     1     + X(I)",
    "   10 CONTINUE",
    "      WRITE(*, '(4ES24.16)') Y",
    "      END",
])

WIDE = """\
C translate-test: translate=--directives=openmp cppflags=-ffixed-line-length-132 translate=--fixed-line-length=132
      PROGRAM WIDE
      IMPLICIT DOUBLE PRECISION (A-H,O-Z)
      PARAMETER (N = 20)
      DIMENSION X(N), Y(N)
      DO 5 I = 1, N
      X(I) = DBLE(I)
    5 Y(I) = 0.0D0
C$OMP PARALLEL DO
      DO 10 I = 1, N
      Y(I) = X(I) * 2.0D0 + X(I) * X(I) * 0.5D0 - X(I) * 3.0D0 + DBLE(I) * 1.25D0 + X(I) / 7.0D0
   10 CONTINUE
      WRITE(*, '(4ES24.16)') Y
      END
"""


def _translate(src: Path, out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", str(out),
                           "--directives=openmp", *extra],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)


def test_card_sequence_numbers_are_ignored_as_gfortran_does(tmp_path: Path) -> None:
    src = tmp_path / "cards.f"
    src.write_text(CARDS)
    check_sample(src, tmp_path)
    done = _translate(src, tmp_path / "o2")
    assert done.returncode == 0, done.stderr
    assert ("cards.f:2:73: warning: text past column 72 of a fixed-form line is ignored, as "
            "gfortran does by default (card sequence numbers in columns 73-80); if the program "
            "is compiled with -ffixed-line-length-N, translate with --fixed-line-length=N (or "
            "none) [-Wline-truncation]") in done.stderr
    quiet = _translate(src, tmp_path / "o3", "--fixed-line-length=72")
    assert quiet.returncode == 0 and "warning" not in quiet.stderr, quiet.stderr


def test_wide_lines_with_the_compilers_line_length(tmp_path: Path) -> None:
    src = tmp_path / "wide.f"
    src.write_text(WIDE)
    check_sample(src, tmp_path)


def test_a_line_length_that_is_no_number_is_a_usage_error(tmp_path: Path) -> None:
    src = tmp_path / "cards.f"
    src.write_text(CARDS)
    done = _translate(src, tmp_path / "out", "--fixed-line-length=3")
    assert done.returncode != 0
    assert "'3' is not a line length (a number of columns from 7 on, or 'none')" in done.stderr


def test_translate_fc_passes_the_compilers_line_length(tmp_path: Path) -> None:
    """translate-fc gives gfortran's -ffixed-line-length-132 to the translator: the wide
    line is read whole, without a warning, and the program matches."""
    from tests.build.helpers import BIN
    from tests.e2e.harness import run
    (tmp_path / "wide.f").write_text(WIDE)
    run(["gfortran", "-O1", "-ffixed-line-length-132", "wide.f", "-o", "original"], tmp_path)
    done = subprocess.run([str(BIN / "translate-fc"), "gfortran", "-O1",
                           "-ffixed-line-length-132", "wide.f", "-o", "translated",
                           "-Xtranslate", "--directives=openmp"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300,
                          env={**__import__("os").environ,
                               "TRANSLATE_BUILD_DIR": str(tmp_path / "tb")})
    assert done.returncode == 0, done.stderr
    assert "line-truncation" not in done.stderr
    expected = run(["./original"], tmp_path)
    assert run(["./translated"], tmp_path, env={"TRANSLATE_DEVICE": "cpu"}) == expected
    assert list((tmp_path / "tb").glob("wide-*/wide.cl"))
