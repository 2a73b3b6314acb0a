"""End to end: a translated program whose last device work is still pending at exit ends
cleanly, with all its output (issue 20, item 10).

Before: a region call with no outputs returned with its launch pending (PoCL compiles the kernel
in a worker thread at launch), ``main`` returned, and the exit handlers the OpenCL
implementation had registered after the runtime's ran first: the pending compile crashed
(SIGSEGV) and buffered standard output was lost.  Now a region call outside data regions
returns with the device idle, and the first launch of each kernel waits and registers the
runtime's exit handler again, so that it runs first.  The crash needs PoCL to compile the
kernel (a cache miss): the runs switch PoCL's kernel cache off.  It came in most runs, not all:
each program runs several times.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.build.helpers import translate
from tests.e2e.harness import (SampleOptions, build_original, build_translated,
                               compare_outputs, run)

HERE = Path(__file__).parent / "exit_order"
RUNS = 4
#: No kernel cache: PoCL compiles at every launch, as in a program's first run.
DEVICE = {"TRANSLATE_DEVICE": "cpu", "POCL_KERNEL_CACHE": "0"}


@pytest.mark.parametrize("name", ["no_output.c", "no_output.f90", "open_data.c"])
def test_pending_work_at_exit(tmp_path: Path, name: str) -> None:
    src = HERE / name
    opts = SampleOptions()
    expected = run([str(build_original(src, tmp_path, opts))], tmp_path)
    translated = build_translated(src, tmp_path, opts)
    for _ in range(RUNS):
        actual = run([str(translated)], tmp_path, env=DEVICE)
        compare_outputs(expected, actual, 0.0)


def test_check_matches_a_region_without_outputs(tmp_path: Path) -> None:
    """Before: the translated program crashed at exit and ``translate check`` said so."""
    r = translate("check", str(HERE / "no_output.c"), cwd=tmp_path, timeout=600,
                  **DEVICE)
    assert r.returncode == 0, r.stderr
    assert "all 1 region executions match (last_value_k x1)" in r.stdout
