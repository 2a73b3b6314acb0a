"""A quick run of the end-to-end random differential fuzzer (bench/e2e_fuzz.py runs it at
length): a few fixed seeds of random C and Fortran programs, each translated, built as written
and as translated, run on the CPU OpenCL device and compared bit for bit; loops declared
parallel are also run backwards in the original (tests/e2e/e2e_fuzzing.py).  No case may be a
silent wrong result (DIFF), an accepted false claim (UNSOUND) or a failure (FAIL)."""

from __future__ import annotations

import pytest

from tests.e2e.e2e_fuzzing import _compile, _sh, refusal_kind, run_batch
from tests.e2e.random_programs import Array, Assign, Case, Loop, Region, add, c, make_case, var
from tests.e2e.random_render import main_program, render

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


def _one_loop_case(lang: str, shift: int) -> Case:
    """``a0(i + 3) = a0(i + 3 - shift) + 1`` over a loop claimed parallel (tag g.0)."""
    a = Array("a0", "f64", 1, "out")
    i = var("i")
    value = ("bin", "+", ("elem", a, (add(i, c(3 - shift)),), "f64"), ("const", 1.0, "f64"),
             "f64")
    loop = Loop("i", c(0), var("n"), 1, [Assign(("elem", a, (add(i, c(3)),), "f64"), value)],
                reverse=True)
    region = Region("p0_r0", ['tag_inames("i:g.0")'], None, [], loop, [], [], [])
    arrays = [a, Array("ix", "i32", 1, "ix"), Array("uf", "f64", 1, "unit"),
              Array("ui", "i32", 1, "unit")]
    return Case(0, lang, 0, arrays, {}, [region], 6, 0)


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_backwards_original_tells_a_false_claim(tmp_path, lang: str) -> None:
    """The oracle for claims: a loop whose iterations depend on each other (shift 1) prints
    something else backwards; one whose iterations are independent (shift 0) does not."""
    outputs = {}
    for shift in (0, 1):
        case = _one_loop_case(lang, shift)
        for backwards in (False, True):
            work = tmp_path / f"{shift}{backwards}"
            work.mkdir()
            src = work / f"case0{case.suffix}"
            src.write_text(render(case, reversed_=backwards))
            main = work / f"main{case.suffix}"
            main.write_text(main_program(lang, [0]))
            built = _compile(lang, [src, main], work / "exe", [], work)
            assert built.returncode == 0, built.stderr
            outputs[shift, backwards] = _sh([str(work / "exe")], work).stdout
    assert outputs[0, False] == outputs[0, True]
    assert outputs[1, False] != outputs[1, True]
