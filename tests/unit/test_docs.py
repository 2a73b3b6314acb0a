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


# ---------------------------------------------------------------------------------------------
# shell sessions: ``$ translate ...`` blocks run on the files of docs/examples

EXAMPLES = DOCS / "examples"
CONSOLE = re.compile(r"^```console\n(.*?)^```", re.M | re.S)


def console_sessions(page: Path) -> list[tuple[int, str, str]]:
    """(line, command, expected output) of each ``$ translate`` command of a console block."""
    text = page.read_text()
    out = []
    for block in CONSOLE.finditer(text):
        line = text.count("\n", 0, block.start(1)) + 1
        command, expected = None, []
        for k, row in enumerate(block.group(1).splitlines() + ["$"]):
            if row.startswith("$"):
                if command is not None:
                    out.append((start, command, "\n".join(expected)))
                command = row[1:].strip() if row.startswith("$ translate") else None
                start, expected = line + k, []
            elif command is not None:
                expected.append(row)
    return out


SESSIONS = [(page.name, line, command, expected)
            for page in sorted(DOCS.glob("*.md")) for line, command, expected
            in console_sessions(page)]


@pytest.mark.parametrize("page, line, command, expected", SESSIONS,
                         ids=[f"{s[0]}:{s[1]}" for s in SESSIONS])
def test_console_sessions(page: str, line: int, command: str, expected: str,
                          tmp_path: Path) -> None:
    """The command prints what the page says (``...`` matches anything), and exits 1 exactly
    when it reports an error."""
    for src in EXAMPLES.iterdir():
        (tmp_path / src.name).write_bytes(src.read_bytes())
    args = command.split()[1:]
    proc = subprocess.run([sys.executable, "-m", "translator.cli", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    got = (proc.stderr + proc.stdout).rstrip("\n")   # warnings come first on a terminal
    checker = doctest.OutputChecker()
    assert checker.check_output(expected + "\n", got + "\n", doctest.ELLIPSIS), \
        f"{page}:{line}: $ {command}\n--- expected\n{expected}\n--- got\n{got}"
    failed = any(": error:" in row for row in got.splitlines())
    assert proc.returncode == (1 if failed else 0), got


def test_console_sessions_are_found() -> None:
    pages = {s[0] for s in SESSIONS}
    assert {"tutorial.md", "diagnostics.md"} <= pages


def test_every_warning_id_is_indexed() -> None:
    """Each ``warn("ID", ...)`` of the sources has a section in docs/diagnostics.md."""
    ids = set()
    for pkg in ("translator", "frontends", "transforms"):
        for path in (ROOT / pkg).rglob("*.py"):
            ids |= set(re.findall(r"\bwarn\(\s*\"([a-z0-9-]+)\"", path.read_text()))
    assert {"sequential-region", "plugin"} <= ids
    index = (DOCS / "diagnostics.md").read_text()
    missing = sorted(i for i in ids if f"### `{i}`" not in index)
    assert not missing, f"warning ids without a section in docs/diagnostics.md: {missing}"
