"""The documentation's examples run: every ``pycon`` block of docs/*.md is a doctest, the
transform reference has a section with a runnable example for every registered transform, and
``translate help TRANSFORM`` prints one transform's documentation."""

from __future__ import annotations

import doctest
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import transforms

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
OPEN = re.compile(r"^```pycon\s*$")
CLOSE = re.compile(r"^```\s*$")
FLAGS = doctest.ELLIPSIS


def doctest_source(text: str) -> str:
    """`text` with everything outside ``pycon`` fences blanked (line numbers are kept, so a
    failure names the line of the markdown file)."""
    out, inside = [], False
    for line in text.splitlines():
        if inside and CLOSE.match(line):
            inside = False
            out.append("")
        elif inside:
            out.append(line)
        else:
            inside = bool(OPEN.match(line))
            out.append("")
    assert not inside, "a pycon block is not closed"
    return "\n".join(out) + "\n"


def run_page(path: Path) -> tuple[doctest.TestResults, str]:
    """Run the examples of one page, in order, in one namespace."""
    source = doctest_source(path.read_text())
    test = doctest.DocTestParser().get_doctest(source, {"__name__": "docs"}, path.name,
                                               str(path), 0)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    results = runner.run(test, out=report.write, clear_globs=True)
    return results, report.getvalue()


PAGES = sorted(p.name for p in DOCS.glob("*.md") if "```pycon" in p.read_text())


def test_pages_with_examples_exist() -> None:
    assert {"transforms.md", "kernel-language.md"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_examples(page: str) -> None:
    results, report = run_page(DOCS / page)
    assert results.attempted > 0
    assert results.failed == 0, report


def _sections(text: str) -> dict[str, str]:
    """``### `name` `` heading -> the text up to the next heading of any level."""
    parts = re.split(r"^(#+ .*)$", text, flags=re.M)
    out = {}
    for head, body in zip(parts[1::2], parts[2::2]):
        m = re.fullmatch(r"### `(\w+)`", head.strip())
        if m:
            out[m.group(1)] = body
    return out


def test_every_transform_has_a_section_with_an_example() -> None:
    sections = _sections((DOCS / "transforms.md").read_text())
    names = [name for name, _, _ in transforms.list_transforms()]
    missing = [n for n in names if n not in sections]
    assert not missing, f"transforms without a section in docs/transforms.md: {missing}"
    no_example = [n for n in names
                  if not re.search(rf"^>>> .*\b{n}\(", doctest_source(sections[n]), re.M)]
    assert not no_example, f"sections without a runnable call of their transform: {no_example}"


def test_doctest_source_keeps_line_numbers() -> None:
    text = "intro\n```pycon\n>>> 1 + 1\n2\n```\n```python\n>>> 0\n```\n"
    assert doctest_source(text).splitlines()[2:4] == [">>> 1 + 1", "2"]
    assert ">>> 0" not in doctest_source(text)


def _translate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "translator.cli", *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_help_prints_one_transform() -> None:
    proc = _translate("help", "split_iname")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("split_iname(split_iname, inner_length, *, outer_iname=None")
    assert "Split an iname into an outer and an inner iname" in proc.stdout
    assert "docs/transforms.md" in lines[-1]
    assert "precompute" not in proc.stdout


def test_help_of_an_unknown_transform() -> None:
    proc = _translate("help", "split_inam")
    assert proc.returncode == 1
    assert proc.stderr == ("translate help: error: unknown transform 'split_inam' "
                           "(did you mean 'split_iname'?)\n")
    proc = _translate("help")
    assert proc.returncode == 1 and proc.stderr.startswith("usage: translate help TRANSFORM")
