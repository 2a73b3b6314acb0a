"""A quick run of the end-to-end random differential fuzzer (bench/e2e_fuzz.py runs it at
length): a few fixed seeds of random C and Fortran programs, each translated, built as written
and as translated, run on the CPU OpenCL device and compared bit for bit; loops declared
parallel are also run backwards in the original (tests/e2e/e2e_fuzzing.py).  No case may be a
silent wrong result (DIFF), an accepted false claim (UNSOUND) or a failure (FAIL)."""

from __future__ import annotations

import pytest

from tests.e2e.e2e_fuzzing import refusal_kind, run_batch
from tests.e2e.random_programs import make_case
from tests.e2e.random_render import render

SEEDS = {"c": [0, 1, 4], "fortran": [0, 2, 3]}


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_random_programs_translate_to_the_same_output_or_are_refused(lang: str) -> None:
    results = run_batch(SEEDS[lang], lang)
    bad = [f"{r.name} {r.cls}: {r.detail}\n{r.text}" for r in results
           if r.cls not in ("MATCH", "REFUSED")]
    assert not bad, "\n\n".join(bad)
    assert any(r.cls == "MATCH" for r in results), [(r.name, r.cls, r.detail) for r in results]


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_generated_programs_are_deterministic(lang: str) -> None:
    assert render(make_case(7, lang, 3)) == render(make_case(7, lang, 3))
    assert render(make_case(7, lang, 3)) != render(make_case(8, lang, 3))


def test_refusals_are_counted_by_message_without_names_or_numbers() -> None:
    err = ("case0.c:12:5: error: mapping i to g.0 races: iteration i=2 writes a0[3], "
           "iteration i=3 reads a0[3] (case0.c:12)\n  a0[i + 1] = a0[i];\n  ^\n")
    assert refusal_kind(err) == "mapping i to g.N races: iteration i=N writes X[..], iteration " \
                                "i=N reads X[..] (..)"
