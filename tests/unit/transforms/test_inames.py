"""tag_inames, untag_inames, find_unused_axis_tag, prioritize_loops, rename_iname(s),
remove_unused_inames."""

from __future__ import annotations

import pytest
from pymbolic import parse

import transforms
from tests.unit.transforms.builders import assign, build, points
from translator.diagnostics import TransformError
from translator.ir import isl_glue
from translator.ir.expr import Reduction
from translator.ir.tags import (ForceSequentialTag, GroupTag, IlpSeqTag, IlpUnrollTag,
                                LocalAutoTag, LocalTag, UnrollTag, VectorizeTag)


def three():
    return build("{[i, j, k]: 0<=i<n and 0<=j<n and 0<=k<4}",
                 [assign("s0", "out[i, j, k]", "a[i, j, k]", ["i", "j", "k"])])


# ---------------------------------------------------------------------------------------------
# tag_inames


@pytest.mark.parametrize("text, tag", [
    ("l.0", LocalTag(0)), ("g.2", GroupTag(2)), ("l.auto", LocalAutoTag()),
    ("ord", ForceSequentialTag()), ("unr", UnrollTag()), ("ilp", IlpUnrollTag()),
    ("ilp.unr", IlpUnrollTag()), ("ilp.seq", IlpSeqTag()), ("vec", VectorizeTag()),
    (LocalTag(1), LocalTag(1)),
])
def test_every_tag_of_the_table(text, tag):
    assert transforms.tag_inames(three(), [("k", text)]).tags_of("k") == {tag}


@pytest.mark.parametrize("spec", [
    "i:l.0, j:g.0", {"i": "l.0", "j": "g.0"}, [("i", "l.0"), ("j", "g.0")],
    [("i", ["l.0"]), ("j", ("g.0",))],
])
def test_tag_forms(spec):
    out = transforms.tag_inames(three(), spec)
    assert out.tags_of("i") == {LocalTag(0)} and out.tags_of("j") == {GroupTag(0)}
    assert out.tags_of("k") == frozenset()


def test_no_tag_and_same_tag_return_same_kernel():
    knl = three()
    assert transforms.tag_inames(knl, "i:for") is knl
    assert transforms.tag_inames(knl, {"i": None}) is knl
    assert transforms.tag_inames(knl, "") is knl
    tagged = transforms.tag_inames(knl, "i:l.0")
    assert transforms.tag_inames(tagged, "i:l.0") is tagged


def test_wildcards():
    knl = build("{[i_a, i_b, j]: 0<=i_a,i_b,j<4}",
                [assign("s0", "o[i_a, i_b, j]", "1", ["i_a", "i_b", "j"])])
    out = transforms.tag_inames(knl, "i_*:unr")
    assert out.tags_of("i_a") == out.tags_of("i_b") == {UnrollTag()}
    assert not out.tags_of("j")
    assert transforms.tag_inames(knl, "?:ord").tags_of("j") == {ForceSequentialTag()}
    assert transforms.tag_inames(knl, "z*:ord") is knl      # a glob may match nothing


def test_like_and_unused_axes():
    knl = transforms.tag_inames(three(), "i:g.0")
    out = transforms.tag_inames(knl, "j:like.i")
    assert out.tags_of("j") == {GroupTag(0)}
    knl2 = transforms.tag_inames(three(), "i:l.0")
    assert transforms.tag_inames(knl2, "k:like.j") is knl2     # j has no tag
    out = transforms.tag_inames(knl, "j:unused.g, k:unused.g")
    assert out.tags_of("j") == {GroupTag(1)} and out.tags_of("k") == {GroupTag(2)}
    out = transforms.tag_inames(knl, "j:unused.l")
    assert out.tags_of("j") == {LocalTag(0)}


def test_find_unused_axis_tag_with_match():
    knl = build("{[i, j]: 0<=i,j<4}", [assign("s0", "a[i]", "1", ["i"]),
                                       assign("s1", "b[j]", "1", ["j"])])
    knl = transforms.tag_inames(knl, "i:l.0")
    assert transforms.find_unused_axis_tag(knl, "l") == LocalTag(1)
    assert transforms.find_unused_axis_tag(knl, "l", "id:s1") == LocalTag(0)
    assert transforms.find_unused_axis_tag(knl, "g") == GroupTag(0)
    with pytest.raises(TransformError, match="unknown hardware axis kind 'x'"):
        transforms.find_unused_axis_tag(knl, "x")


def test_force_replaces_and_conflict_errors():
    knl = transforms.tag_inames(three(), "i:l.0")
    with pytest.raises(TransformError) as err:
        transforms.tag_inames(knl, "i:g.0")
    assert err.value.message == (
        "tag_inames: iname 'i' is already tagged 'l.0'; cannot also tag it 'g.0' (an iname "
        "has one implementation tag; pass force=True to replace it)")
    assert transforms.tag_inames(knl, "i:g.0", force=True).tags_of("i") == {GroupTag(0)}
    seq = transforms.tag_inames(three(), "i:ord")
    with pytest.raises(TransformError, match="already tagged 'ord'"):
        transforms.tag_inames(seq, "i:l.0")


@pytest.mark.parametrize("spec, message", [
    ("q:l.0", "tag_inames: unknown iname 'q'"),
    ("ii:l.0", "tag_inames: unknown iname 'ii' (did you mean 'i'?)"),
    ("i l.0", "tag_inames: 'i l.0' has no ':'"),
    ("i:l.x", "tag_inames: bad tag for 'i': unknown iname tag 'l.x'"),
    ({"i": 7}, "tag_inames: tag for 'i' must be a tag string, got 7"),
    ([("i",)], "tag_inames: expected (iname, tag) pairs"),
    ("i:like.zz", "tag_inames: unknown iname 'zz'"),
    (5, "tag_inames: expected 'iname:tag, ...', a dict or (iname, tag) pairs, got 5"),
])
def test_tag_errors(spec, message):
    with pytest.raises(TransformError) as err:
        transforms.tag_inames(three(), spec)
    assert message in err.value.message


def test_ignore_nonexistent():
    knl = three()
    assert transforms.tag_inames(knl, "q:l.0", ignore_nonexistent=True) is knl


# ---------------------------------------------------------------------------------------------
# untag_inames


def test_untag_forms():
    knl = transforms.tag_inames(three(), "i:l.0, j:g.1, k:unr")
    assert not transforms.untag_inames(knl, "i", LocalTag).tags_of("i")
    assert not transforms.untag_inames(knl, "i", "l").tags_of("i")
    assert not transforms.untag_inames(knl, "j", "g.1").tags_of("j")
    assert not transforms.untag_inames(knl, "k", UnrollTag()).tags_of("k")
    assert transforms.untag_inames(knl, "i", "g") is knl
    assert transforms.untag_inames(knl, "j", "g.0") is knl
    assert "i" not in transforms.untag_inames(knl, "i", "l").iname_tags


def test_untag_errors():
    with pytest.raises(TransformError, match="untag_inames: unknown iname 'q'"):
        transforms.untag_inames(three(), "q", "l")
    with pytest.raises(TransformError, match="untag_inames: bad tag_type"):
        transforms.untag_inames(three(), "i", "l.q")


# ---------------------------------------------------------------------------------------------
# prioritize_loops


def test_prioritize_loops():
    knl = three()
    out = transforms.prioritize_loops(knl, "i, j")
    assert out.loop_priority == {("i", "j")}
    out = transforms.prioritize_loops(out, ["j", "k"])
    assert out.loop_priority == {("i", "j"), ("j", "k")}
    assert transforms.prioritize_loops(out, "i,j") is out
    assert transforms.prioritize_loops(knl, "i") is knl


@pytest.mark.parametrize("prio, message", [
    ("i,q", "prioritize_loops: unknown iname 'q'"),
    ("i,i", "an iname appears twice"),
    ([1, 2], "loop_priority must be names"),
    (5, "prioritize_loops: loop_priority must be names, got 5"),
])
def test_prioritize_errors(prio, message):
    with pytest.raises(TransformError, match=message):
        transforms.prioritize_loops(three(), prio)


def test_prioritize_contradiction():
    knl = transforms.prioritize_loops(three(), "i,j")
    knl = transforms.prioritize_loops(knl, "j,k")
    with pytest.raises(TransformError, match="contradictory loop priorities"):
        transforms.prioritize_loops(knl, "k,i")


# ---------------------------------------------------------------------------------------------
# rename_iname / rename_inames


def test_rename_everywhere():
    red = Reduction("sum", ("k",), parse("a[i, k]"))
    knl = build("{[i, k]: 0<=i<n and 0<=k<4}", [assign("s0", "out[i]", red, ["i"],
                                                       predicates=frozenset({parse("k0 > i")}))])
    knl = transforms.tag_inames(knl, "i:g.0")
    knl = transforms.prioritize_loops(knl, "i,k")
    out = transforms.rename_iname(knl, "i", "ii")
    assert out.all_inames == {"ii", "k"}
    s = out.statement("s0")
    assert s.assignee == parse("out[ii]") and s.expression == Reduction("sum", ("k",),
                                                                       parse("a[ii, k]"))
    assert s.predicates == {parse("k0 > ii")} and s.within_inames == {"ii"}
    assert out.tags_of("ii") == {GroupTag(0)} and "i" not in out.iname_tags
    assert out.loop_priority == {("ii", "k")}
    out2 = transforms.rename_iname(knl, "k", "kk")
    assert out2.statement("s0").expression == Reduction("sum", ("kk",), parse("a[i, kk]"))


def test_rename_within_duplicates_the_iname():
    knl = build("{[i]: 0<=i<n}", [assign("s0", "a[i]", "1", ["i"]),
                                  assign("s1", "b[i]", "2", ["i"])])
    out = transforms.rename_iname(knl, "i", "j", within="id:s1")
    assert out.all_inames == {"i", "j"}
    assert out.statement("s0") is knl.statement("s0")
    assert out.statement("s1").assignee == parse("b[j]")
    assert points(out, ["j"], n=3) == {(0,), (1,), (2,)}


def test_rename_iname_bounding_nested_domain():
    knl = build(["{[i]: 0<=i<n}", "{[j]: 0<=j<i}"], [assign("s0", "o[i, j]", "1", ["i", "j"])])
    out = transforms.rename_iname(knl, "i", "r")
    isl_glue.check_forest(out.domains)
    assert points(out, ["r", "j"], n=4) == points(knl, ["i", "j"], n=4)


def test_rename_into_existing_iname():
    knl = build(["{[i]: 0<=i<n}", "{[k]: 0<=k<n}"], [assign("s0", "a[i]", "1", ["i"]),
                                                     assign("s1", "b[k]", "2", ["k"])])
    with pytest.raises(TransformError, match="iname 'k' already exists \\(pass "
                                             "existing_ok=True"):
        transforms.rename_iname(knl, "i", "k")
    out = transforms.rename_iname(knl, "i", "k", existing_ok=True)
    assert out.all_inames == {"k"}
    assert out.statement("s0").assignee == parse("a[k]")


def test_rename_inames_merges():
    knl = build(["{[i]: 0<=i<n}", "{[k]: 0<=k<n}", "{[m]: 0<=m<n+1}"],
                [assign("s0", "a[i]", "1", ["i"]), assign("s1", "b[k]", "2", ["k"]),
                 assign("s2", "c[m]", "3", ["m"])])
    out = transforms.rename_inames(knl, ["i", "k"], "j")
    assert out.all_inames == {"j", "m"}
    assert out.statement("s1").within_inames == {"j"}
    merged = build("{[i, k]: 0<=i<n and 0<=k<n}", [assign("s0", "a[i]", "1", ["i"]),
                                                   assign("s1", "b[k]", "2", ["k"])])
    out = transforms.rename_inames(merged, ["i", "k"], "j")
    assert out.all_inames == {"j"} and points(out, ["j"], n=2) == {(0,), (1,)}
    with pytest.raises(TransformError, match="inames 'm' and 'i' do not iterate over the "
                                             "same domain"):
        transforms.rename_inames(knl, "i,m", "j")


@pytest.mark.parametrize("old, new, kw, message", [
    ("q", "z", {}, "rename_iname: unknown iname 'q'"),
    ("i", "a", {}, "rename_iname: 'a' is already a variable of kernel 'knl', not an iname"),
    ("i", "n", {}, "'n' is already a variable"),
    ("i", "i", {}, "new iname 'i' is one of the inames being renamed"),
    ("i", "2x", {}, "new iname must be an identifier"),
    ("i", "j", {"existing_ok": True}, "statement 's0' is inside several of the inames"),
])
def test_rename_errors(old, new, kw, message):
    knl = build("{[i, j]: 0<=i<n and 0<=j<n}", [assign("s0", "a[i, j]", "1", ["i", "j"])])
    with pytest.raises(TransformError, match=message.replace("(", "\\(").replace(")", "\\)")):
        transforms.rename_iname(knl, old, new, **kw)


def test_rename_within_nothing_is_identity():
    knl = three()
    assert transforms.rename_iname(knl, "i", "z", within="id:none") is knl


# ---------------------------------------------------------------------------------------------
# remove_unused_inames


def test_remove_unused_inames():
    knl = build("{[i, j]: 0<=i<n and 0<=j<m}", [assign("s0", "out[i]", "a[i]", ["i"])])
    knl = transforms.tag_inames(knl, "j:l.0")
    out = transforms.remove_unused_inames(knl)
    assert out.all_inames == {"i"}
    assert out.domains[0] == isl_glue.parse_domain("{[i]: 0<=i<n and m>0}")
    assert "j" not in out.iname_tags
    assert transforms.remove_unused_inames(out) is out
    assert transforms.remove_unused_inames(knl, "i") is knl
    assert transforms.remove_unused_inames(knl, ["j"]).all_inames == {"i"}


def test_remove_unused_keeps_reduction_and_bounding_inames():
    red = Reduction("sum", ("k",), parse("a[k]"))
    knl = build(["{[i, k]: 0<=i<n and 0<=k<n}", "{[j]: 0<=j<i}"],
                [assign("s0", "out[0]", red), assign("s1", "b[j]", "1", ["j"])])
    assert transforms.remove_unused_inames(knl) is knl


def test_remove_unused_unknown_iname():
    with pytest.raises(TransformError, match="remove_unused_inames: unknown iname 'q'"):
        transforms.remove_unused_inames(three(), "q")
