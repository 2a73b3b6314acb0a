"""A quick run of the end-to-end random differential fuzzer (bench/e2e_fuzz.py runs it at
length): a few fixed seeds of random C and Fortran programs, each translated, built as written
and as translated, run on the CPU OpenCL device and compared bit for bit; loops declared
parallel are also run backwards in the original (tests/e2e/e2e_fuzzing.py).  No case may be a
silent wrong result (DIFF), an accepted false claim (UNSOUND) or a failure (FAIL)."""

from __future__ import annotations

import pytest

from tests.e2e.e2e_fuzzing import GOOD, _compile, _sh, refusal_kind, run_batch, \
    within_tolerance
from tests.e2e.random_programs import FEATURES, SECOND_ROUND, Array, Assign, Case, Loop, \
    Region, add, c, make_case, var
from tests.e2e.random_render import main_program, render

SEEDS = {"c": [0, 1, 4], "fortran": [0, 2, 3]}
# seeds of the second round's shapes (FEATURES: built-ins with a tolerance, guards, stencils,
# swaps, modulo, implicit conversions) that translate and run
FEATURE_SEEDS = {"c": [1001, 1009], "fortran": [1006, 1002]}


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_random_programs_translate_to_the_same_output_or_are_refused(lang: str) -> None:
    results = run_batch(SEEDS[lang], lang)
    bad = [f"{r.name} {r.cls}: {r.detail}\n{r.text}" for r in results
           if r.cls not in ("MATCH", "REFUSED")]
    assert not bad, "\n\n".join(bad)
    assert any(r.cls == "MATCH" for r in results), [(r.name, r.cls, r.detail) for r in results]


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_random_programs_of_the_second_round_shapes_translate_or_are_refused(lang: str) -> None:
    results = run_batch(FEATURE_SEEDS[lang], lang, features=frozenset(SECOND_ROUND))
    bad = [f"{r.name} {r.cls}: {r.detail}\n{r.text}" for r in results if r.cls not in GOOD]
    assert not bad, "\n\n".join(bad)
    assert any(r.cls in ("MATCH", "WITHIN") for r in results), \
        [(r.name, r.cls, r.detail) for r in results]


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_features_are_drawn_only_when_asked(lang: str) -> None:
    """A seed without features is the program it always was; with them, every feature shows
    up within a few seeds."""
    everything = frozenset(FEATURES)
    used: set[str] = set()
    for seed in range(12):
        plain = render(make_case(seed, lang, 0))
        assert render(make_case(seed, lang, 0, frozenset())) == plain
        case = make_case(seed, lang, 0, everything)
        used |= case.used
        assert case.used <= everything
    assert used == everything - ({"components"} if lang == "c" else set())   # Fortran's only


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_modulo_takes_the_sign_of_the_divisor_in_both_languages(tmp_path, lang: str) -> None:
    """The generator's ``mod`` node is Fortran's ``modulo``; C's rendering must agree with it
    (and with Python's %) on negative dividends and divisors."""
    a = Array("a0", "i64", 1, "out")
    i = var("i")
    body = []
    for k, divisor in enumerate((3, -3)):
        value = ("bin", "mod", ("bin", "-", i, c(4), "i32"), c(divisor), "i32")
        body.append(Assign(("elem", a, (add(i, c(20 * k)),), "i64"), ("cast", value, "i64")))
    loop = Loop("i", c(0), c(8), 1, body)
    region = Region("p0_r0", [], None, [], loop, [], [], [])
    arrays = [a, Array("ix", "i32", 1, "ix"), Array("uf", "f64", 1, "unit"),
              Array("ui", "i32", 1, "unit")]
    case = Case(0, lang, 0, arrays, {}, [region], 6, 0)
    (tmp_path / f"case0{case.suffix}").write_text(render(case))
    (tmp_path / f"main{case.suffix}").write_text(main_program(lang, [0]))
    built = _compile(lang, [tmp_path / f"case0{case.suffix}", tmp_path / f"main{case.suffix}"],
                     tmp_path / "exe", [], tmp_path)
    assert built.returncode == 0, built.stderr
    lines = _sh([str(tmp_path / "exe")], tmp_path).stdout.splitlines()
    values = [int(x) for x in lines[2:42]]
    assert values[:9] == [(q - 4) % 3 for q in range(9)]
    assert values[20:29] == [(q - 4) % -3 for q in range(9)]


def test_tolerance_is_for_floats_of_cases_calling_built_ins_only() -> None:
    case = make_case(0, "c", 0)
    case.arrays = [Array("a0", "f32", 1, "out"), Array("a1", "i32", 1, "out")]
    want = "a0\n0x1p+0\n0x1.8p+1\na1\n3\nires\n0\nfres\n0x0p+0\n"
    near = want.replace("0x1.8p+1", "0x1.800008p+1")          # 2^-20 relative
    far = want.replace("0x1.8p+1", "0x1.9p+1")
    wrong_int = want.replace("a1\n3", "a1\n4")
    assert not case.tolerant
    case.used = frozenset({"math"})
    assert case.tolerant
    exp = ("call", "exp", (("const", 1.0, "f32"),), "f32")
    case.regions[0].nest.body.append(Assign(("var", "t", "f32"), exp))
    assert within_tolerance(case, want, near)
    assert not within_tolerance(case, want, far)
    assert not within_tolerance(case, want, wrong_int)
    assert not within_tolerance(case, want, want + "0x1p+0\n")


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
