"""A guard is tested before the read it protects (lead, session 12, after h74's note).

``if (i > 0) { if (a[i - 1] > t) ... }`` gives the statement two predicates; the IR keeps them
as a set, and the kernel joined them with ``&&`` in the order of their text:
``a[... - 1] > t && ... > 0``, so work item 0 read ``a[-1]`` (one element before the buffer:
on PoCL a harmless read of the host's memory, on a GPU a read outside the allocation).  The
predicates that read fewer array elements now come first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.harness import REPO, check_sample

HERE = Path(__file__).parent / "guard_order"


@pytest.mark.parametrize("name", ["nested_guard.c", "nested_guard.f90"])
def test_the_guard_comes_before_the_read(tmp_path: Path, name: str) -> None:
    src = tmp_path / name
    src.write_text((HERE / name).read_text())
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "translator.cli", str(src), "-o", str(out)],
                          capture_output=True, text=True, timeout=300, check=False, cwd=REPO)
    assert done.returncode == 0, done.stderr
    kernel = (out / (src.stem + ".cl")).read_text()
    tests = [line for line in kernel.splitlines() if "&&" in line and "a[" in line]
    assert tests, kernel
    for line in tests:
        first = line.split("&&")[0]
        assert "[" not in first, line   # the bound first, then the read it guards
    work = tmp_path / "run"
    work.mkdir()
    check_sample(HERE / name, work)
