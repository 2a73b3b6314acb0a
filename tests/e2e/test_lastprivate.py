"""OpenMP ``lastprivate`` in parallel (issue 22): each iteration has its own copy and the work
item that runs the sequentially last iteration stores it after the loop (the last point of a
``collapse`` nest, a DO loop with a step, a copy updated in an inner loop), Fortran and C.  The
samples (`samples/openmp/lastprivate.*`) translate with ``-Werror`` (no loop left sequential),
the report says every loop is proven parallel, and the programs match the original bit for
bit on PoCL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

SAMPLES = [REPO / "samples" / "openmp" / f"lastprivate{ext}" for ext in (".f90", ".c")]


def report(src: Path, out: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", str(out),
                           "--directives", "openmp", "--report", "-Werror"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return done.stderr + done.stdout


@pytest.mark.parametrize("src", SAMPLES, ids=lambda p: p.name)
def test_lastprivate_loops_run_in_parallel(src: Path, tmp_path: Path) -> None:
    text = report(src, tmp_path / "out")
    claims = [line for line in text.splitlines() if "' at line " in line]
    assert len(claims) == 2, text
    for line in claims:
        assert "proven: loops" in line and "stored by the last iteration" in line, line
    assert "mapping: sequential" not in text
    device = (tmp_path / "out" / f"{src.stem}.cl").read_text()
    assert "_tr_last_" in device


@pytest.mark.parametrize("src", SAMPLES, ids=lambda p: p.name)
def test_lastprivate_values_match_the_original(src: Path, tmp_path: Path) -> None:
    assert check_sample(src, tmp_path).strip()
