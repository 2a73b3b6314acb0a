"""Async queues and update batches on PoCL (issue 25): `async(N)` on regions and updates,
`wait`, and updates whose copies are enqueued together.

The programs' results depend on the order of their regions (tests/e2e/async_queues/order.*:
two regions of one queue, a region without async after async ones, an async region after one
without), so a region that ran before the work it must follow would change them; they must
match the original's output.  The update batch program changes the host memory right after an
`update device` that returned without waiting for its copies."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, TRANSLATE, build_translated, check_sample, run, sample_options

HERE = Path(__file__).resolve().parent / "async_queues"


@pytest.mark.parametrize("name", ["order.c", "order_f.f90"])
def test_async_regions_keep_their_order(name: str, tmp_path: Path) -> None:
    check_sample(HERE / name, tmp_path)


def test_async_glue_runs_on_queues(tmp_path: Path) -> None:
    """The glue starts async regions on their queue ids (a bare `async`: TR_ASYNC_NOVAL)."""
    run([*TRANSLATE, str(HERE / "order_f.f90"), "-o", str(tmp_path)], REPO)
    glue = (tmp_path / "order_f.host.c").read_text()
    assert re.search(r"tr_region_begin_async\(&_tr_call, &_tr_region_slow_f, \d+, 1LL\);", glue)
    assert "tr_region_begin_async(&_tr_call, &_tr_region_square_f, " in glue
    assert re.search(r"_tr_region_square_f, \d+, TR_ASYNC_NOVAL\);", glue)
    assert re.search(r"tr_region_begin\(&_tr_call, &_tr_region_mix_f, \d+\);", glue)
    assert "tr_wait(&_tr_site, 0, NULL);" in glue


def test_update_device_returns_before_its_copies_end(tmp_path: Path) -> None:
    """Each step writes the host array, sends it with `update device` (two sections, one
    batch: no wait for the device) and overwrites the host copy at once; the kernels must see
    the values sent.  `update host` of two sections, then the host reads them."""
    exe = build_translated(HERE / "batch.c", tmp_path, sample_options(HERE / "batch.c"))
    out = run([str(exe)], tmp_path, env={"TRANSLATE_DEVICE": "cpu"})
    assert out == "device sums match the values sent: yes\nedges back: yes\n"


def test_too_many_queue_ids_stop_the_program(tmp_path: Path) -> None:
    """33 async queue ids in one run: the 33rd update stops the program at its line."""
    updates = "".join(f"#pragma translate update device(a[0:4]) async({k})\n"
                      for k in range(33))
    src = tmp_path / "many.c"
    src.write_text("#include <stdio.h>\nstatic double a[4];\nint main(void)\n{\n"
                   "#pragma translate data copyin(a)\n{\n" + updates +
                   "#pragma translate wait\n}\n#pragma translate end data\n"
                   "    puts(\"done\");\n    return 0;\n}\n")
    exe = build_translated(src, tmp_path, sample_options(src))
    proc = subprocess.run([str(exe)], cwd=tmp_path, capture_output=True, text=True, check=False,
                          timeout=300, env={**os.environ, "TRANSLATE_DEVICE": "cpu"})
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == (f"{src}:39: error: translate runtime: update: async(32): more than "
                           "32 async queue ids in one run (use fewer ids)\n")
