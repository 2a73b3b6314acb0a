"""A cold ``translate`` (and the compiler wrappers) keeps numpy's BLAS from starting a thread
pool: the translator never uses BLAS, and OpenBLAS's pool spins at import (issue 24;
bench/RESULTS.md, "Cold translate, third round (h89)").

Each check runs the real entry point in a fresh interpreter (``TRANSLATE_SERVER=0``: the
process translates itself), records the environment at the moment numpy is imported and the
process's thread count once the translation is done.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from translator.server import THREAD_LIMITS

ROOT = Path(__file__).resolve().parents[2]

#: Runs ENTRY (``translate`` or ``translate-fc``) as its console script does; on stderr, the
#: thread settings numpy was imported with and the number of threads at the end.
_CHILD = """
import importlib.abc, json, os, sys
seen = {}
class Watch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" and not seen:
            seen.update({k: os.environ.get(k) for k in %(limits)r})
        return None
sys.meta_path.insert(0, Watch())
entry = sys.argv[1]
sys.argv = [entry, *sys.argv[2:]]
if entry == "translate":
    from translator.cli import main
else:
    from translator.build.wrappers import main_fc as main
code = main()
print(json.dumps([seen, len(os.listdir("/proc/self/task")), "numpy" in sys.modules]),
      file=sys.stderr)
sys.exit(code)
"""


def _run(entry: str, *args: str, cwd: Path, **environ: str) -> tuple[dict, int]:
    env = {k: v for k, v in os.environ.items() if k not in THREAD_LIMITS}
    env.update(TRANSLATE_SERVER="0", **environ)
    child = _CHILD % {"limits": THREAD_LIMITS}
    proc = subprocess.run([sys.executable, "-c", child, entry, *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    seen, threads, imported = json.loads(proc.stderr.strip().splitlines()[-1])
    assert imported, "the translation did not import numpy: nothing was checked"
    return seen, threads


def test_translate_imports_numpy_with_one_thread(tmp_path):
    seen, threads = _run("translate", "--no-cache", str(ROOT / "samples/fortran/saxpy.f90"),
                         "-o", str(tmp_path / "out"), cwd=tmp_path)
    assert seen == dict.fromkeys(THREAD_LIMITS, "1")
    assert threads == 1
    assert (tmp_path / "out" / "saxpy.cl").exists()


def test_a_users_own_thread_setting_wins(tmp_path):
    seen, _ = _run("translate", "--no-cache", str(ROOT / "samples/c/saxpy.c"),
                   "-o", str(tmp_path / "out"), cwd=tmp_path, OPENBLAS_NUM_THREADS="2")
    assert seen["OPENBLAS_NUM_THREADS"] == "2"
    assert seen["OMP_NUM_THREADS"] == "1"


@pytest.mark.skipif(shutil.which("gfortran") is None, reason="needs gfortran")
def test_the_compiler_wrapper_imports_numpy_with_one_thread(tmp_path):
    seen, threads = _run("translate-fc", "-c", str(ROOT / "samples/fortran/saxpy.f90"),
                         "-o", str(tmp_path / "saxpy.o"), cwd=tmp_path,
                         TRANSLATE_BUILD_DIR=str(tmp_path / "build"),
                         TRANSLATE_CACHE_DIR=str(tmp_path / "cache"))
    assert seen == dict.fromkeys(THREAD_LIMITS, "1")
    assert threads == 1
    assert (tmp_path / "saxpy.o").exists()


def test_check_and_tune_leave_their_programs_environment_alone(tmp_path):
    """``translate check`` and ``translate tune`` run the user's programs, which inherit the
    environment: a subcommand sets no thread limit (shown with ``help``, which runs here)."""
    code = ("import os, sys\nfrom translator.cli import main\n"
            "sys.argv = ['translate', 'help', 'split_iname']\ncode = main()\n"
            "print([k for k in %r if k in os.environ], file=sys.stderr)\nsys.exit(code)\n"
            % (THREAD_LIMITS,))
    env = {k: v for k, v in os.environ.items() if k not in THREAD_LIMITS}
    env["TRANSLATE_SERVER"] = "0"
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "split_iname" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == "[]"
