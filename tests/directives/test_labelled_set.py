"""The labelled directive set (tests/directives/cases.py): no racy loop is accepted; every
race-free loop is translated and matches the original program on PoCL, or is refused with a
reason that docs/porting-directives.md lists.  Run with ``-s`` to see the table."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.directives.cases import CASES
from tests.directives.harness import (SUFFIX, documented_reasons, run_set, table, verdict,
                                      write_cases)


def test_set_is_big_enough() -> None:
    for language in ("fortran", "c"):
        mine = [c for c in CASES if c.language == language]
        assert len(mine) >= 30
        assert {c.label for c in mine} == {"racy", "race_free"}
    assert len(CASES) >= 80
    assert len({c.name for c in CASES}) == len(CASES)


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
def outcomes(tmp_path_factory: pytest.TempPathFactory):
    return run_set(tmp_path_factory.mktemp("directive-set"))


def test_labelled_set(outcomes) -> None:
    reasons = documented_reasons()
    report = table(outcomes, reasons)
    print("\n" + report)
    racy_accepted = [o.case.name for o in outcomes.values()
                     if o.case.label == "racy" and o.translated]
    assert racy_accepted == [], report
    wrong = [o.case.name for o in outcomes.values() if verdict(o, reasons)]
    assert wrong == [], report
