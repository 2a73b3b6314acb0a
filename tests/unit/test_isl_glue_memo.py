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
