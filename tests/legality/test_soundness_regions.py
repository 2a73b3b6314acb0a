"""Never unsound on random C regions with scalars (issue 10), subscripts that leave their
extent and nests whose bounds name the enclosing loop (issue 20): 200 seeded cases through
the C frontend and the legality analysis, each verdict checked by brute force and each legal
kernel built on PoCL (`tests.legality.random_regions`).  bench/oracle.py runs the same check
on 5,000 cases and more."""

from __future__ import annotations

import pytest

from tests.legality.random_regions import (Assign, Loop, Mapping, check_case, oracle_conflict,
                                           trace)

CASES = 200


def test_random_regions_are_never_unsound() -> None:
    unsound, unbuilt = [], []
    verdicts = {"legal": 0, "illegal": 0, "private": 0, "spill": 0, "nested legal": 0}
    for seed in range(CASES):
        outcome = check_case(seed, build=True)
        if outcome.conflict == "skip":
            continue
        verdicts["legal" if outcome.legal else "illegal"] += 1
        verdicts["private"] += "private" in outcome.message
        verdicts["spill"] += "reaches index" in outcome.message
        verdicts["nested legal"] += outcome.legal and ("= 2*" in outcome.text
                                                       or "= 4*" in outcome.text)
        if outcome.unsound:
            unsound.append((seed, outcome.conflict, outcome.text))
        if outcome.build_error and not outcome.build_error.startswith("code generation:"):
            unbuilt.append((seed, outcome.build_error, outcome.text))
    assert not unsound, unsound[0]
    assert not unbuilt, unbuilt[0]
    # the new families are exercised: refusals on a subscript leaving its extent, and legal
    # kernels (built above) over nests whose inner bounds name the enclosing loop
    assert verdicts["spill"] >= 3 and verdicts["nested legal"] >= 3, verdicts
    # the sample exercises both verdicts, including refusals on private scalars
    assert verdicts["legal"] >= CASES // 10 and verdicts["private"] >= CASES // 10, verdicts


def _prefix_sum() -> list:
    s0 = Assign("s", None, [("const", 0)], line=1)
    acc = Assign("s", None, [("scalar", "s"), ("array", "b", ("aff", {"i": 1}, 0))], line=3)
    out = Assign("a", ("aff", {"i": 1}, 0), [("scalar", "s")], line=4)
    return [s0, Loop("i", "0", "n", [acc, out])]


@pytest.mark.parametrize("modulo", [None, 2])
def test_oracle_sees_a_carried_private_scalar(modulo) -> None:
    """The oracle is not vacuous: a prefix sum through a private scalar is a conflict."""
    recs = trace(_prefix_sum(), 3, 0, [0.0] * 64)
    found = oracle_conflict(recs, Mapping("i", "", modulo), {"s"}, set(), set())
    assert found == "s written at line 3 {'i': 0}, read at line 3 {'i': 1}"


def test_oracle_compares_a_spilling_column_by_address() -> None:
    """``g[20 + i][j - 1]`` at j = 0 is the last column of the row before: a conflict."""
    write = Assign("g", ("grid", ("aff", {"i": 1}, 0), ("aff", {"j": 1}, 0)), [("const", 1)],
                   line=3)
    read = Assign("s", None, [("array", "g", ("grid", ("aff", {"i": 1}, 0),
                                              ("aff", {"j": 1}, -1)))], line=4)
    program = [Loop("i", "0", "n", [Loop("j", "0", "4", [write, read])])]
    recs = trace(program, 3, 0, [0.0] * 64)
    found = oracle_conflict(recs, Mapping("i", "", None), {"s"}, set(), set())
    assert found == "('g', 83) touched at lines 3 {'i': 0, 'j': 3} and 4 {'i': 1, 'j': 0}"


def test_oracle_accepts_a_private_scalar_written_first() -> None:
    program = [Loop("i", "0", "n", [
        Assign("t", None, [("array", "b", ("aff", {"i": 1}, 0))], line=2),
        Assign("a", ("aff", {"i": 1}, 0), [("scalar", "t")], line=3)])]
    recs = trace(program, 4, 0, [0.0] * 64)
    assert oracle_conflict(recs, Mapping("i", "", None), {"t"}, set(), set()) is None
