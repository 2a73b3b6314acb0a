"""The README's Python snippet runs as written (issue acceptance: it works after the setup)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_snippet_runs(capsys) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "the README has no python snippet"
    scope: dict = {}
    exec(compile(blocks[0], "README.md", "exec"), scope)  # noqa: S102 - our own README
    out = scope["out"]
    np.testing.assert_allclose(out["c"], scope["A"] @ scope["B"], rtol=1e-12)
    printed = capsys.readouterr().out
    assert "__kernel" in printed and "instructions:" in printed and "sum(" in printed
