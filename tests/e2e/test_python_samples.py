"""The Python-library samples run and agree with numpy (their "original program")."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from tests.e2e.harness import REPO

SAMPLES = sorted((REPO / "samples" / "python").glob("*.py"))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_python_sample(path: Path, capsys) -> None:
    module = runpy.run_path(str(path))
    assert module["main"](257) == 0          # 257: not a multiple of the work-group size
    assert "max abs difference from numpy" in capsys.readouterr().out
