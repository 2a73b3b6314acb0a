"""A neighbour read guarded by the loop's bounds in C translates (h74, after h72's
`nested_ternary.c`): the analysis took the reads inside ``?:`` branches and after ``&&``/``||``
operands as unconditional, so ``i > 0 && in[i - 1] > t``, ``i == 0 || i == n - 1 ? in[i] :
in[i - 1]*in[i + 1]`` and nested ``?:`` stencil ends were refused with a witness that never
runs (``in[i + 2] reaches index 2 at i=0 when n=1``, and "before the first element" for an
index past the end).  Now the conditions that hold where a read is evaluated bound it: the
conjunctions of affine integer comparisons; a disjunction or any other part is dropped, never
assumed.  Reads out of bounds in the original stay refused, with the right wording."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

SAMPLE = REPO / "bench" / "h74_hunt" / "guards.c"


def test_guarded_neighbours_translate_and_match(tmp_path: Path) -> None:
    src = tmp_path / "guards.c"
    src.write_text(SAMPLE.read_text())
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "translator.cli", "--directives=openmp",
                           str(src), "-o", str(out)], capture_output=True, text=True,
                          timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr
    rewritten = (out / "guards.c").read_text()
    for name in ("peaks", "marks", "ends", "chain", "either"):
        assert f"  translate_{name}_0(" in rewritten
    work = tmp_path / "run"
    work.mkdir()
    check_sample(SAMPLE, work)


HEAD = "void f(int n, double t, const double *restrict in, double *restrict out)\n{\n"
LOOP = "#pragma omp parallel for\n  for (int i = 0; i < n; i++)\n"

REFUSED = [
    # the read comes before its guard: C reads in[-1] at i = 0
    ("    if (in[i - 1] > t && i > 0)\n      out[i] = 1.0;\n",
     "3:13: error: '#pragma omp parallel for': in[i - 1] reaches index -1 at i=0 when n=1: "
     "the loop reads before the first element of 'in'"),
    # a disjunction guards nothing: i = 0 with n > 5 reads in[-1]
    ("    out[i] = (i > 0 || n > 5) ? in[i - 1] : 0.0;\n",
     "3:13: error: '#pragma omp parallel for': in[i - 1] reaches index -1"),
    # the read before its guard, past the end: C reads in[n] at i = n - 1
    ("    if (in[i + 1] > 0 && i < n - 1)\n      out[i] = 1.0;\n",
     "3:13: error: '#pragma omp parallel for': in[i + 1] reaches index 1 at i=0 when n=1: the "
     "loop reads past the last element of 'in' that the translator moves (those the loop "
     "reads where its conditions hold), and it has no declared extent: test the loop's bounds "
     "before the read (C evaluates '&&' and '||' from the left), or declare the array with "
     "its extent, e.g. 'double a[n]'"),
    # a comparison of a double bounds nothing
    ("    out[i] = i < t ? in[i - 1] : 0.0;\n",
     # the read's condition i < t is kept as `if (i < t)` keeps it (h90): t in the witness
     "5:5: error: in[i - 1] reaches index -1 at i=0 when n=1, t=1: with such values the loop "
     "reads before the first element of 'in'"),
]


@pytest.mark.parametrize("body,expected", REFUSED)
def test_real_out_of_bounds_reads_stay_refused(tmp_path: Path, body: str,
                                               expected: str) -> None:
    src = tmp_path / "oob.c"
    src.write_text(HEAD + LOOP + body + "}\n")
    done = subprocess.run([sys.executable, "-m", "translator.cli", "--directives=openmp",
                           str(src), "-o", str(tmp_path / "out")], capture_output=True,
                          text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert f"oob.c:{expected}" in done.stderr


def test_declared_extent_past_the_end_stays_refused(tmp_path: Path) -> None:
    src = tmp_path / "ext.c"
    src.write_text("void f(int n, const double in[n], double *restrict out)\n{\n" + LOOP
                   + "    out[i] = i == 0 ? in[0] : (i == n - 1 ? in[i + 1] : in[i - 1]);\n}\n")
    done = subprocess.run([sys.executable, "-m", "translator.cli", "--directives=openmp",
                           str(src), "-o", str(tmp_path / "out")], capture_output=True,
                          text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert ("ext.c:3:13: error: '#pragma omp parallel for': in[i + 1] reaches index 2 of "
            "dimension 1 (extent 0..n-1) at i=1 when n=2: the loop reads outside the declared "
            "extent of 'in'") in done.stderr
