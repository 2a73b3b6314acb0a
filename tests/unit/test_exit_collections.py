"""A process that translated skips the cyclic collections of its exit (issue 24; bench/RESULTS.md,
h59): the command line (`translator.cli.main`) has the heap frozen (`gc.freeze`) by an `atexit`
handler, so the interpreter's finalisation does not traverse the memos and trees left alive.

Each check runs the real command line in a fresh interpreter (``TRANSLATE_SERVER=0``, so the
process translates itself); an `atexit` handler registered before the translation runs after
the translator's (handlers run last registered first) and reports what it sees.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Runs ``translate ARGS`` in this interpreter; at exit prints how many objects are frozen.
_CHILD = """
import atexit, gc, sys
atexit.register(lambda: print("frozen", gc.get_freeze_count(), file=sys.stderr))
from translator.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _frozen_at_exit(source: Path, out: Path) -> tuple[int, subprocess.CompletedProcess]:
    env = dict(os.environ, TRANSLATE_SERVER="0")
    proc = subprocess.run([sys.executable, "-c", _CHILD, "--no-cache", str(source), "-o",
                           str(out)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300, check=False)
    last = proc.stderr.strip().splitlines()[-1].split()
    assert last[0] == "frozen", proc.stderr
    return int(last[1]), proc


def test_a_translating_process_freezes_its_heap_at_exit(tmp_path):
    frozen, proc = _frozen_at_exit(ROOT / "samples/fortran/saxpy.f90", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    assert frozen > 10_000   # the modules and what the translation left: not traversed again
    written = {p.name: p.read_text() for p in (tmp_path / "out").iterdir()}
    assert {"saxpy.cl", "saxpy.host.c", "saxpy.f90"} <= set(written)
    assert "__kernel void" in written["saxpy.cl"]   # outputs complete before the exit


def test_a_failing_translation_freezes_too_and_reports(tmp_path):
    bad = tmp_path / "bad.f90"
    bad.write_text("subroutine s(n)\n  integer :: n\n  !$translate kernel\n  do i = 1,\n"
                   "  end do\n  !$translate end kernel\nend subroutine s\n")
    frozen, proc = _frozen_at_exit(bad, tmp_path / "out")
    assert proc.returncode == 1
    assert f"{bad}:4:" in proc.stderr
    assert frozen > 0


def test_translating_through_the_api_freezes_nothing(tmp_path):
    """A program using the API (and these tests) keeps collecting cycles, at exit too: only the
    command freezes."""
    from translator.driver import translate_text
    source = ROOT / "samples/fortran/saxpy.f90"
    translate_text(str(source), source.read_text())
    assert gc.get_freeze_count() == 0


SAXPY = ROOT / "samples/fortran/saxpy.f90"


def test_an_api_program_exits_with_its_collections(tmp_path):
    code = ("import atexit, gc, sys\n"
            "atexit.register(lambda: print('frozen', gc.get_freeze_count(), file=sys.stderr))\n"
            "from translator.driver import translate_text\n"
            f"translate_text('saxpy.f90', open({str(SAXPY)!r}).read())\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300, check=True)
    assert proc.stderr.strip().splitlines()[-1] == "frozen 0", proc.stderr
