"""The shortcuts scale needs in the isl glue give the answers isl gives."""

from __future__ import annotations

import pymbolic.primitives as p

import translator
from translator.ir.isl_glue import domain_parents, find_conflict, instance_set
from translator.ir.isl_glue.core import is_affine

I, J = p.Variable("i"), p.Variable("_tr_b_i")


def _sets():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 2*a[i]")
    first = instance_set(knl.domains, ["i"])
    second = instance_set(knl.domains, ["i"], rename={"i": "_tr_b_i"})
    return knl, first, second


def test_same_element_offset_forces_equal_iterations():
    _, first, second = _sets()
    assert find_conflict(first, second, [(I, J)], [("i", "_tr_b_i")]) is None
    assert find_conflict(first, second, [(I + 1, J + 1)], [("i", "_tr_b_i")]) is None


def test_different_offsets_still_go_to_isl_and_find_the_witness():
    _, first, second = _sets()
    witness = find_conflict(first, second, [(I, J + 1)], [("i", "_tr_b_i")])
    assert witness is not None and witness["i"] == witness["_tr_b_i"] + 1


def test_remembered_answers_are_copies():
    _, first, second = _sets()
    a = find_conflict(first, second, [(I, J + 1)], [("i", "_tr_b_i")])
    a["i"] = -99
    b = find_conflict(first, second, [(I, J + 1)], [("i", "_tr_b_i")])
    assert b["i"] != -99


def test_instance_sets_are_shared_for_equal_arguments():
    knl, first, _ = _sets()
    assert instance_set(knl.domains, ["i"]) is first
    assert instance_set(list(knl.domains), ["i"]) is not first   # a list is never remembered


def test_is_affine_remembered_per_expression():
    assert is_affine(I + 2 * J, ["i"]) and is_affine(I + 2 * J, [])
    assert not is_affine(I * J, ["i", "_tr_b_i"])
    assert not is_affine(I * J, ["i", "_tr_b_i"])


def test_domain_parents_by_latest_definer():
    knl = translator.make_kernel(["{[i]: 0<=i<n}", "{[j]: 0<=j<i}", "{[k]: 0<=k<n}"],
                                 "out[i, j] = k")
    assert domain_parents(knl.domains) == (None, 0, None)


# ---------------------------------------------------------------------------------------------
# memo keys tell apart what pymbolic's equality does not (``i + 1 == i + 1.0``, ``1 == True``)

def _outcome(compute) -> str:
    """What `compute()` gives (a set by its text), or the error it raises."""
    from translator.diagnostics import TranslatorError
    try:
        return str(compute())
    except TranslatorError as err:
        return f"error {type(err).__name__}"


def _asked_after(first, then) -> tuple[str, str]:
    """`then`'s outcome fresh, and after `first` was asked (the memo cleared before each)."""
    from translator.ir.isl_glue import core
    core._MEMO.clear()
    fresh = _outcome(then)
    core._MEMO.clear()
    _outcome(first)
    return fresh, _outcome(then)


def _int_float_pairs():
    """(int form, float form) of a subscript difference, a condition and a constant."""
    return [(J + 1, J + 1.0), (J + 1, J + p.Product((1.0, 1))), (J + 1, p.Sum((J, True)))]


def test_conflicts_with_int_and_float_subscripts_are_not_confused():
    _, first, second = _sets()
    for a, b in _int_float_pairs():
        for x, y in ((a, b), (b, a)):
            fresh, after = _asked_after(
                lambda x=x: find_conflict(first, second, [(I, x)], [("i", "_tr_b_i")]),
                lambda y=y: find_conflict(first, second, [(I, y)], [("i", "_tr_b_i")]))
            assert after == fresh, (x, y)
    # the same question up to the names of the loops (`_alpha_conflict`) too
    knl = translator.make_kernel("{[j]: 0<=j<n}", "out[j] = 2*a[j]")
    one = instance_set(knl.domains, ["j"])
    two = instance_set(knl.domains, ["j"], rename={"j": "_tr_b_j"})
    J2 = p.Variable("_tr_b_j")
    fresh, after = _asked_after(
        lambda: find_conflict(first, second, [(I, J + 1)], [("i", "_tr_b_i")]),
        lambda: find_conflict(one, two, [(p.Variable("j"), J2 + 1.0)], [("j", "_tr_b_j")]))
    assert after == fresh


def test_instance_sets_with_int_and_float_conditions_are_not_confused():
    knl, _, _ = _sets()
    for a, b in ((p.Comparison(I, "<", 3), p.Comparison(I, "<", 3.0)),
                 (p.Comparison(I, "<", 1), p.Comparison(I, "<", True))):
        for x, y in ((a, b), (b, a)):
            fresh, after = _asked_after(lambda x=x: instance_set(knl.domains, ["i"], [x]),
                                        lambda y=y: instance_set(knl.domains, ["i"], [y]))
            assert after == fresh, (x, y)


def test_nonnegative_and_context_with_int_and_float_constants_are_not_confused():
    from translator.ir.isl_glue.codegen import context_set
    from translator.ir.isl_glue.core import is_nonnegative
    knl, _, _ = _sets()
    for x, y in ((I - 0, I - 0.0), (I - 0.0, I - 0)):
        fresh, after = _asked_after(lambda x=x: is_nonnegative(x, knl.domains[0]),
                                    lambda y=y: is_nonnegative(y, knl.domains[0]))
        assert after == fresh, (x, y)
    for x, y in ((p.Comparison(I, "<", 2), p.Comparison(I, "<", 2.0)),
                 (p.Comparison(I, "<", 2.0), p.Comparison(I, "<", 2))):
        fresh, after = _asked_after(lambda x=x: context_set([x]), lambda y=y: context_set([y]))
        assert after == fresh, (x, y)
