"""The README's Python snippet runs as written (issue acceptance: it works after the setup)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.build.helpers import env

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


def _snippet_and_commands(language: str) -> tuple[str, str]:
    """The README's first `language` block and the ``sh`` block right after it."""
    found = re.search(rf"```{language}\n(.*?)```\s*```sh\n(.*?)```", README.read_text(), re.S)
    assert found, f"the README has no {language} snippet followed by its commands"
    return found.group(1), found.group(2)


@pytest.mark.parametrize("language,name,reference", [
    ("fortran", "saxpy.f90", ["gfortran", "saxpy.f90", "-o", "ref"]),
    ("c", "src.c", ["gcc", "-DN=1000", "src.c", "-o", "ref"]),
])
def test_readme_build_snippets_run(tmp_path: Path, language: str, name: str,
                                   reference: list[str]) -> None:
    """The Fortran and C snippets are whole programs; the commands under them, run as
    written, build the translated program, which prints what the original prints."""
    source, commands = _snippet_and_commands(language)
    (tmp_path / name).write_text(source)
    subprocess.run(reference, cwd=tmp_path, check=True)
    expected = subprocess.run(["./ref"], cwd=tmp_path, capture_output=True, text=True,
                              check=True).stdout
    run = subprocess.run(["bash", "-e", "-c", commands], cwd=tmp_path, capture_output=True,
                         text=True, env=env(), timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout == expected and expected.split() == ["3.0", "2001.0"]
