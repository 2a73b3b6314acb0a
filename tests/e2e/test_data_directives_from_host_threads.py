"""Data directives reached from several host threads at once (h70; noted by h62 and h63): an
OpenMP ``parallel do`` / ``parallel for`` left as written on the host calls a procedure whose
OpenACC ``data`` / ``update host`` / ``enter data`` / ``exit data`` (OpenMP ``target data`` /
``target update`` / ``target enter data`` / ``target exit data``) move its own column.  The
runtime locked region calls but not the data directives, and kept one stack of open data
regions for the process: built with ``-fopenmp`` and four threads, runs stopped with "update:
array 'x' ... is not present on the device", aborted in PoCL, crashed (segmentation fault) or
hung.  Now each data directive holds the runtime's lock while it runs (an ``update`` from its
first item to its wait) and each thread has its own stack of data regions; the present table
is the process's, as OpenACC's is the device's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import REPO, build_original, build_translated, run, sample_options

HUNT = REPO / "bench" / "h70_hunt"


@pytest.mark.parametrize("name", ["acc_data_threads.f90", "omp_data_threads.c"])
def test_data_directives_called_from_host_threads_match(name: str, tmp_path: Path) -> None:
    src = HUNT / name
    opts = sample_options(src)
    original = build_original(src, tmp_path, opts)
    translated = build_translated(src, tmp_path, opts)
    env = {"OMP_NUM_THREADS": "4"}
    expected = run([str(original)], tmp_path, env=env)
    for _ in range(4):
        got = run([str(translated)], tmp_path, env={**env, "TRANSLATE_DEVICE": "cpu"},
                  timeout=120)
        assert got == expected
