"""The labelled directive set (tests/directives/cases.py): no racy loop is accepted; every
race-free loop is translated and matches the original program on PoCL, or is refused with a
reason that docs/porting-directives.md lists.  One test per case (the whole set is translated,
built and run once); ``-s`` prints the table of outcomes."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.directives.cases import CASES
from tests.directives.harness import (SUFFIX, Outcome, documented_reasons, run_set, table,
                                      verdict, write_cases)

#: Cases the translator does not handle yet, with the reason: each is expected to fail (a
#: strict xfail: when one starts passing, take it off this list).
KNOWN_GAPS = {
}


def test_set_is_big_enough() -> None:
    for language in ("fortran", "c"):
        mine = [c for c in CASES if c.language == language]
        assert len(mine) >= 30
        assert {c.label for c in mine} == {"racy", "race_free"}
    assert len(CASES) >= 80
    assert len({c.name for c in CASES}) == len(CASES)
    assert set(KNOWN_GAPS) <= {c.name for c in CASES}


@pytest.mark.parametrize("language", ["fortran", "c"])
def test_cases_are_valid_openmp_and_openacc(tmp_path: Path, language: str) -> None:
    """Each case is a program the OpenMP/OpenACC compilers take (the labels are about real
    directive programs, not about text only the translator reads)."""
    cases = [c for c in CASES if c.language == language and not c.invalid_directive]
    paths = write_cases(tmp_path, cases)
    compiler = ["gfortran"] if language == "fortran" else ["gcc", "-std=c99"]
    proc = subprocess.run([*compiler, "-fopenmp", "-fopenacc", "-fsyntax-only",
                           *map(str, paths.values())], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert all(p.suffix == SUFFIX[language] for p in paths.values())


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """The set's outcomes, computed once per test run: under pytest-xdist the first worker
    that needs them runs the set, the others wait for its result (one JSON file)."""
    run_id = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run_id is None:
        found = run_set(tmp_path_factory.mktemp("directive-set"))
    else:
        found = _shared(tmp_path_factory.getbasetemp().parent / f"directive-set-{run_id}",
                        tmp_path_factory)
    print("\n" + table(found, documented_reasons()))
    return found


def _shared(folder: Path, factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    folder.mkdir(exist_ok=True)
    result = folder / "outcomes.json"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)     # released when the file closes
        if not result.exists():
            found = run_set(factory.mktemp("directive-set"))
            tmp = folder / "outcomes.json.tmp"
            tmp.write_text(json.dumps({k: _as_json(o) for k, o in found.items()}))
            tmp.replace(result)
    by_name = {c.name: c for c in CASES}
    return {k: Outcome(by_name[k], v["translated"], [tuple(e) for e in v["errors"]],
                       [tuple(w) for w in v["warnings"]], v["matched"])
            for k, v in json.loads(result.read_text()).items()}


def _as_json(o: Outcome) -> dict:
    return {"translated": o.translated, "errors": o.errors, "warnings": o.warnings,
            "matched": o.matched}


def _params():
    for case in CASES:
        marks = [pytest.mark.xfail(reason=KNOWN_GAPS[case.name], strict=True)] \
            if case.name in KNOWN_GAPS else []
        yield pytest.param(case.name, id=case.name, marks=marks)


@pytest.mark.parametrize("name", list(_params()))
def test_case(outcomes: dict[str, Outcome], name: str) -> None:
    """A racy loop is refused at its directive (directive-race or a documented reason, with
    the clause that fixes it where there is one); a race-free loop is translated and matches
    the original, or is refused with a documented reason."""
    o = outcomes[name]
    problem = verdict(o, documented_reasons())
    assert problem == "", f"{name} ({o.case.label}): {problem}\n{o.errors or o.warnings}"
