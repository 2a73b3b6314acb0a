"""`frontends.privacy`: a scalar written before every read, in the same iteration, on every
path (the frontends' choice of private scalars; isl proves mappings in
tests/legality/test_private_flow.py)."""

from __future__ import annotations

import pymbolic.primitives as p

from frontends.privacy import Step, written_before_every_read
from translator.ir.predicates import combined, merge_complementary

C1 = p.Comparison(p.Variable("a"), ">", 0)
C2 = p.Comparison(p.Variable("a"), ">", 1)


def step(loops=(), preds=(), reads=(), writes=()) -> Step:
    return Step(loops=frozenset(loops), predicates=frozenset(preds), reads=frozenset(reads),
                writes=frozenset(writes))


def test_both_branches_cover_the_read():
    steps = [step("i", [C1], writes="t"), step("i", [p.LogicalNot(C1)], writes="t"),
             step("i", reads="t")]
    assert written_before_every_read("t", steps)
    assert not written_before_every_read("t", [steps[0], steps[2]])


def test_else_if_chain_needs_every_branch():
    n1, n2 = p.LogicalNot(C1), p.LogicalNot(C2)
    chain = [step("i", [C1], writes="t"), step("i", [n1, C2], writes="t")]
    read = step("i", reads="t")
    assert not written_before_every_read("t", [*chain, read])
    assert written_before_every_read("t", [*chain, step("i", [n1, n2], writes="t"), read])
    assert combined({frozenset([C1]), frozenset([n1, C2]), frozenset([n1, n2])}) >= {
        frozenset([n1]), frozenset()}


def test_condition_changed_after_the_write_no_longer_covers():
    steps = [step("i", [C1], writes="t"), step("i", writes="a"), step("i", [C1], reads="t")]
    assert not written_before_every_read("t", steps)
    assert written_before_every_read("t", [steps[0], steps[2]])


def test_write_must_enclose_the_read_in_its_loops():
    assert written_before_every_read("t", [step("i", writes="t"), step(["i", "j"], reads="t")])
    assert not written_before_every_read("t", [step(["i", "j"], writes="t"),
                                               step("i", reads="t")])
    # several nests: each read has its own nest's write
    assert written_before_every_read("t", [step("i", writes="t"), step("i", reads="t"),
                                           step("k", writes="t"), step("k", reads="t")])


def test_read_before_any_write():
    assert not written_before_every_read("t", [step("i", reads="t", writes="t")])
    assert not written_before_every_read("t", [step("i", reads="x")])


def test_merge_complementary_needs_exactly_one_negated_difference():
    assert merge_complementary(frozenset([C1, C2]), frozenset([p.LogicalNot(C1), C2])) == \
        frozenset([C2])
    assert merge_complementary(frozenset([C1]), frozenset([C2])) is None
    assert merge_complementary(frozenset([C1]), frozenset([p.LogicalNot(C1), C2])) is None
