"""Inputs that blew the translator up (issue 28, items 8-10): many statements on one pointer
or assumed-size array, long sums and products, deep parentheses.  Each translates, in both
languages, with outputs that grow linearly with the input (the pointer's extent is one
bound, not a conditional that doubled per statement).  The programs are run on the CPU
OpenCL device in tests/e2e/test_blowups.py."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.build.fuzzing import mutate
from tests.build.helpers import translate
from tests.build.shapes import shape

LANGS = ("c", "fortran")


def _translated(tmp_path: Path, kind: str, lang: str, size: int) -> dict[str, str]:
    name, text = shape(kind, lang, size)
    (tmp_path / name).write_text(text)
    r = translate(name, "-o", "out", cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "Traceback" not in r.stderr
    return {p.name: p.read_text() for p in (tmp_path / "out").iterdir()}


@pytest.mark.parametrize("lang", LANGS)
def test_many_statements_size_the_array_with_one_bound(tmp_path: Path, lang: str):
    """25 statements ``y[k*n + i] = ...``: was a 789 MB host file (a nested conditional
    doubling per statement); now one extent, 25 * n."""
    outs = _translated(tmp_path, "statements", lang, 25)
    host = next(t for n, t in outs.items() if n.endswith(".host.c"))
    assert len(host) < 100_000
    sizes = re.findall(r"tr_arg_array\(&_tr_call, \d+, y, ([^,]+),", host)
    assert sizes == ["25 * _tr_i_n"], sizes


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["sum", "product"])
def test_long_chains_translate(tmp_path: Path, lang: str, kind: str):
    """300 terms: was a RecursionError (exit 2) or a refusal naming a Python error."""
    outs = _translated(tmp_path, kind, lang, 300)
    kernel = next(t for n, t in outs.items() if n.endswith(".cl"))
    op = "+" if kind == "sum" else "*"
    line = next(x for x in kernel.splitlines() if "y[" in x and "=" in x)
    assert line.count(f" {op} ") >= 180 and "((" not in line   # one flat chain
    assert sum(len(t) for t in outs.values()) < 200_000


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("kind", ["parens", "parens_outside"])
def test_deep_parentheses_translate(tmp_path: Path, lang: str, kind: str):
    """60 nested parentheses, in the region or only outside it: Fortran refused the whole
    file from 40 on."""
    outs = _translated(tmp_path, kind, lang, 60)
    kernel = next(t for n, t in outs.items() if n.endswith(".cl"))
    assert kernel.count("(") >= (60 if kind == "parens" else 1)


def test_fortran_nesting_past_the_bound_is_a_located_error(tmp_path: Path):
    """Deeper than fparser2 can take in seconds: refused at the 201st parenthesis (was a
    RecursionError at 40 deep, reported at 1:1)."""
    name, text = shape("parens_outside", "fortran", 201)
    (tmp_path / name).write_text(text)
    r = translate(name, "-o", "out", cwd=tmp_path, timeout=600)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    line, col = _past_depth(text.splitlines(), "y(1) = y(1)", 200)
    assert (f"{name}:{line}:{col}: error: parentheses nested more than 200 deep (the "
            "Fortran parser's limit)") in r.stderr, r.stderr[:500]


def _past_depth(lines: list[str], start: str, limit: int) -> tuple[int, int]:
    """(line, column) of the parenthesis that passes `limit`, from the line holding `start`."""
    first = next(k for k, x in enumerate(lines) if start in x)
    depth = 0
    for k in range(first, len(lines)):
        for col, ch in enumerate(lines[k], 1):
            depth += (ch == "(") - (ch == ")")
            if depth > limit:
                return k + 1, col
    raise AssertionError("never that deep")


def test_fortran_syntax_error_deep_in_parentheses_ends_quickly(tmp_path: Path):
    """A stray word 50 parentheses deep (found by ``fuzz_cli.py --shapes``): fparser2 tried
    alternatives for every prefix of every chain (minutes, then the memory bound); now a
    syntax error at once."""
    name, text = shape("parens", "fortran", 54)
    bad = mutate(text, [("region_interesting_token", 38337, 41600)])   # the fuzzer's input
    assert "0.5d0 tag_inames (0.625d0" in bad
    (tmp_path / name).write_text(bad)
    t0 = time.perf_counter()
    r = translate(name, "-o", "out", cwd=tmp_path, timeout=600)
    last = next(k for k, x in enumerate(bad.splitlines(), 1) if "x(i))" in x)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert (f"{name}:{last}:8: error: Fortran syntax error (fparser could not parse this "
            "statement)") in r.stderr, r.stderr[:500]
    assert time.perf_counter() - t0 < 120


def test_fortran_parser_work_is_bounded(monkeypatch):
    """The backstop: past its budget of nodes the parse ends with an error at the statement
    it was reading."""
    from frontends.fortran import source
    from translator.diagnostics import FrontendError
    from translator.driver import translate_text
    monkeypatch.setattr(source, "NODES_PER_CHARACTER", 0)
    monkeypatch.setattr(source, "NODES_BASE", 40)
    name, text = shape("sum", "fortran", 20)
    with pytest.raises(FrontendError) as err:
        translate_text(name, text)
    assert err.value.render().startswith(
        f"{name}:3:3: error: the Fortran parser gave up on this statement (it tried too many "
        "ways to read it: is there a syntax error in a nested expression?)\n"
        "  integer, intent(in) :: n\n")
