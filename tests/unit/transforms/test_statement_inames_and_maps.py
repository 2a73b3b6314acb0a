"""duplicate_inames (+ get_iname_duplication_options, has_schedulable_iname_nesting),
split_reduction_inward/outward, affine_map_inames, map_domain, make_reduction_inames_unique,
add_inames_to_insn, add_inames_for_unused_hw_axes."""

from __future__ import annotations

import islpy as isl
import numpy as np
import pytest

import transforms
from tests.unit.transforms.builders import arr, check, knl, text
from tests.unit.transforms.builders import points
from translator.diagnostics import KernelLanguageError, TransformError
from translator.ir.tags import GroupTag, LocalTag


def overdetermined():
    """The reference's example: i and j cannot nest as the three statements need."""
    return knl("{[i, j]: 0<=i,j<n}", """
        mat1[i, j] = mat1[i, j] + 1  {inames=i:j, id=i1}
        mat2[j] = mat2[j] + 1        {inames=j, id=i2}
        mat3[i] = mat3[i] + 1        {inames=i, id=i3}
        """, arr("mat1", "n, n"), arr("mat2", "n"), arr("mat3", "n"))


def matvec():
    return knl("{[i, j, k]: 0<=i<n and 0<=j,k<m}", "out[i] = sum([j, k], a[i, j, k])",
               arr("a", "n, m, m", np.float64))


# ---------------------------------------------------------------------------------------------
# duplicate_inames


def test_duplication_options_of_the_reference_example():
    k = overdetermined()
    assert sorted(transforms.get_iname_duplication_options(k)) == [
        ("i", "id:i1"), ("i", "id:i3"), ("j", "id:i1"), ("j", "id:i2")]
    assert not transforms.has_schedulable_iname_nesting(k)


def test_duplication_options_ignore_parallel_inames_and_nested_sets():
    k = transforms.tag_inames(overdetermined(), "i:g.0")
    assert transforms.has_schedulable_iname_nesting(k)
    nested = knl("{[i, j]: 0<=i,j<n}", "a[i] = 1 {id=s0}\nb[i, j] = 2 {id=s1}",
                 arr("a", "n"), arr("b", "n, n"))
    assert list(transforms.get_iname_duplication_options(nested)) == []


def test_duplicate_structure():
    k = overdetermined()
    out = transforms.duplicate_inames(k, "i", "id:i3")
    assert out.all_inames == {"i", "i_0", "j"}
    assert out.statement("i3").within_inames == {"i_0"}
    assert out.statement("i1").within_inames == {"i", "j"}
    assert "mat3[i_0] = mat3[i_0] + 1" in text(out)
    assert points(out, ["i_0"], n=3) == {(0,), (1,), (2,)}
    assert transforms.has_schedulable_iname_nesting(out)


def test_duplicate_keeps_constraints_with_other_inames():
    k = knl("{[i, j]: 0<=i<n and 0<=j<=i}", "a[i, j] = 1 {id=s0}\nb[i, j] = 2 {id=s1}",
            arr("a", "n, n"), arr("b", "n, n"))
    out = transforms.duplicate_inames(k, "j", "id:s1", new_inames=["jj"])
    assert points(out, ["i", "jj"], n=3) == points(k, ["i", "j"], n=3)


def test_duplicate_names_tags_and_suffix():
    k = overdetermined()
    out = transforms.duplicate_inames(k, "i", "id:i3", new_inames=["ii"], tags={"i": "g.0"})
    assert out.tags_of("ii") == {GroupTag(0)} and out.tags_of("i") == frozenset()
    assert transforms.duplicate_inames(k, "i", "id:i3", suffix="_dup").all_inames == {
        "i", "i_dup", "j"}


def test_duplicate_everywhere_is_a_rename_and_nothing_is_no_change():
    k = overdetermined()
    out = transforms.duplicate_inames(k, "i", None)
    assert out.all_inames == {"i_0", "j"}
    assert transforms.duplicate_inames(k, "i", "id:i2") is k
    assert transforms.duplicate_inames(k, "i", "id:nothing") is k


def test_duplicate_runs(ctx):
    k = overdetermined()
    check(k, transforms.duplicate_inames(k, "i", "id:i3", tags={"i": "g.0"}), ctx, n=5)


def test_dup_attribute_of_the_kernel_language():
    k = knl("{[i]: 0<=i<n}", "a[i] = 1 {id=s0}\nb[i] = 2 {id=s1, dup=i->ib}",
            arr("a", "n"), arr("b", "n"))
    assert k.statement("s1").within_inames == {"ib"}
    assert k.statement("s0").within_inames == {"i"}


@pytest.mark.parametrize("args, message", [
    (("k", "id:i1"), r"unknown iname 'k'"),
    (("i", "id:i1", ["j"]), r"new iname 'j' is already used"),
    (("i", "id:i1", ["a", "b"]), r"2 new iname\(s\) for 1 iname\(s\)"),
    (("i, i", "id:i1"), r"an iname appears twice"),
])
def test_duplicate_errors(args, message):
    with pytest.raises(TransformError, match=message):
        transforms.duplicate_inames(overdetermined(), *args)


def test_duplicate_error_tags_and_unschedulable():
    k = overdetermined()
    with pytest.raises(TransformError, match="tags names 'j', which is not one of"):
        transforms.duplicate_inames(k, "i", "id:i3", tags={"j": "l.0"})
    with pytest.raises(TransformError, match="not schedulable: .*axis l.5 does not exist"):
        transforms.duplicate_inames(k, "i", "id:i3", tags={"i": "l.5"})


def test_duplicate_error_nested_domain():
    k = knl(["{[i]: 0<=i<n}", "{[j]: 0<=j<i}"], "a[i, j] = 1 {id=s0}\nb[i] = 2 {id=s1}",
            arr("a", "n, n"), arr("b", "n"))
    with pytest.raises(TransformError, match="'i' bounds the nested domain .* statement 's0'"):
        transforms.duplicate_inames(k, "i", "id:s0")
    assert transforms.duplicate_inames(k, "i", "id:s1").statement("s1").within_inames == {
        "i_0"}


def test_dup_attribute_error():
    with pytest.raises(KernelLanguageError, match="dup='k' names an iname the statement is "
                                                  "not within"):
        knl("{[i]: 0<=i<n}", "a[i] = 1 {id=s0, dup=k}", arr("a", "n"))


# ---------------------------------------------------------------------------------------------
# split_reduction_inward / outward


def test_split_reduction_structure():
    k = matvec()
    assert "sum([k], sum([j], a[i, j, k]))" in text(transforms.split_reduction_inward(k, "j"))
    assert "sum([j], sum([k], a[i, j, k]))" in text(transforms.split_reduction_outward(k, "j"))


def test_split_reduction_runs(ctx):
    k = matvec()
    # the inner reduction over j needs the k loop outside the j loop
    inward = transforms.prioritize_loops(transforms.split_reduction_inward(k, "j"), "k, j")
    check(k, inward, ctx, n=3, m=4)
    check(k, transforms.split_reduction_outward(k, ["j"]), ctx, n=3, m=4)


def test_split_reduction_errors_and_pragma():
    k = matvec()
    with pytest.raises(TransformError, match="split_reduction_inward: no reduction .* over "
                                             "j, k and further inames"):
        transforms.split_reduction_inward(k, "j, k")
    with pytest.raises(TransformError, match="no reduction"):
        transforms.split_reduction_outward(k, "j", within="id:nothing")
    out = transforms.apply_call(k, "split_reduction_outward", ("k",))
    assert "sum([k], sum([j], a[i, j, k]))" in text(out)


# ---------------------------------------------------------------------------------------------
# affine_map_inames and map_domain


def test_affine_map_structure():
    k = knl("{[i]: 0<=i<n}", "out[i] = 2*a[i]", arr("a", "n"))
    out = transforms.affine_map_inames(k, "i", "j", "j = i + 1")
    assert out.all_inames == {"j"}
    assert points(out, ["j"], n=3) == {(1,), (2,), (3,)}
    assert "out[j - 1] = 2*a[j - 1]" in text(out)
    same = transforms.affine_map_inames(k, ["i"], ["j"], [("j", "i + 1")])
    assert same == out


@pytest.mark.parametrize("equations", [["p = i + j", "q = j"], ["p = i + j", "q = i - j"]])
def test_affine_map_runs(ctx, equations):
    k = knl("{[i, j]: 0<=i<n and 0<=j<m}", "out[i, j] = a[i, j]*(i + 2*j)", arr("a", "n, m"))
    check(k, transforms.affine_map_inames(k, "i, j", "p, q", equations), ctx, n=3, m=4)


def test_affine_map_reduction_inames():
    out = transforms.affine_map_inames(matvec(), "j", "q", "q = j + 1")
    assert "sum([k, q], a[i, q - 1, k])" in text(out)


@pytest.mark.parametrize("old, new, eqs, message", [
    ("i", "j", "2*j = i", "not defined on every point"),
    ("i", "j", "j >= i", "one '=' between its sides"),
    ("i", "j", "j = i + q", r"unknown name\(s\) q"),
    ("i", "j", "j = i*i", "non-affine"),
    ("i", "a", "a = i", "new iname 'a' is already used"),
    ("i", "j", "j = = i", "one '='"),
])
def test_affine_map_errors(old, new, eqs, message):
    k = knl("{[i]: 0<=i<n}", "out[i] = 2*a[i]", arr("a", "n"))
    with pytest.raises(TransformError, match=message):
        transforms.affine_map_inames(k, old, new, eqs)


def test_affine_map_errors_partial_use_and_tags():
    k = knl("{[i, j]: 0<=i,j<n}", "out[i, j] = 1 {id=s0}\nb[i] = 2 {id=s1}",
            arr("out", "n, n"), arr("b", "n"))
    with pytest.raises(TransformError, match="statement 's1' uses only some of the mapped"):
        transforms.affine_map_inames(k, "i, j", "p, q", "p = i + j, q = j".split(", "))
    tagged = transforms.tag_inames(k, "i:g.0")
    with pytest.raises(TransformError, match="iname 'i' is tagged 'g.0'; untag it first"):
        transforms.affine_map_inames(tagged, "i", "p", "p = i")


def test_map_domain_structure_and_runs(ctx):
    k = knl("{[i]: 0<=i<n}", "out[i] = 2*a[i]", arr("a", "n"))
    text_map = "{[i] -> [io, ii]: i = 4*io + ii and 0 <= ii < 4}"
    out = transforms.map_domain(k, text_map)
    assert out.all_inames == {"io", "ii"}
    assert "out[4*io + ii] = 2*a[4*io + ii]" in text(out)
    assert transforms.map_domain(k, isl.Map(text_map)) == out
    assert transforms.map_domain(k, isl.BasicMap(text_map)) == out
    assert transforms.map_domain(k, "{A[i] -> B[io, ii]: i = 4*io + ii and 0 <= ii < 4}") == out
    check(k, transforms.tag_inames(out, "ii:l.0, io:g.0"), ctx, n=10)


@pytest.mark.parametrize("rel, message", [
    ("{[k] -> [j]: j = k}", "unknown iname 'k'"),
    ("{[i] -> [n]: n = i}", "output iname of the map 'n' is already used"),
    ("{[i] -> [j]: j >= i}", "not one-to-one"),
    ("{[i] -> [j]: j = i", "malformed map"),
    ("{[i]: i = 1}", "malformed map"),
    ("{[i] -> [i + 1]}", r"needs its own name \(write '\{\[i\] -> \[j\]: j = i \+ 1\}'"),
    ("{[i] -> [j, j]: j = i}", "needs its own name"),
    (3, "expected an islpy Map or its text"),
])
def test_map_domain_errors(rel, message):
    k = knl("{[i]: 0<=i<n}", "out[i] = 2*a[i]", arr("a", "n"))
    with pytest.raises(TransformError, match=message):
        transforms.map_domain(k, rel)


def test_map_domain_nested_domain_error():
    k = knl(["{[i]: 0<=i<n}", "{[j]: 0<=j<i}"], "a[i, j] = 1", arr("a", "n, n"))
    with pytest.raises(TransformError, match="'i' bounds a nested domain"):
        transforms.map_domain(k, "{[i] -> [p]: p = i + 1}")


# ---------------------------------------------------------------------------------------------
# make_reduction_inames_unique


def two_sums():
    return knl("{[i, j]: 0<=i<n and 0<=j<m}", "out[i] = sum(j, a[i, j]) + sum(j, 2*b[i, j])",
               arr("a", "n, m"), arr("b", "n, m"))


def test_unique_reduction_inames_structure():
    k = two_sums()
    out = transforms.make_reduction_inames_unique(k)
    assert "sum([j], a[i, j]) + sum([j_0], 2*b[i, j_0])" in text(out)
    assert points(out, ["j_0"], n=2, m=3) == {(0,), (1,), (2,)}
    assert transforms.make_reduction_inames_unique(out) is out
    assert transforms.make_reduction_inames_unique(k, inames="i") is k
    assert transforms.make_reduction_inames_unique(k, within="id:nothing") is k


def test_unique_reduction_inames_runs(ctx):
    k = two_sums()
    check(k, transforms.make_reduction_inames_unique(k, inames=["j"]), ctx, n=3, m=4)


def test_unique_reduction_inames_skips_simultaneous():
    k = knl("{[i, j]: 0<=i<n and 0<=j<m}",
            "out[i] = sum(j, a[i, j]) + simul_reduce(sum, [j], 2*a[i, j])", arr("a", "n, m"))
    assert transforms.make_reduction_inames_unique(k) is k


# ---------------------------------------------------------------------------------------------
# add_inames_to_insn and add_inames_for_unused_hw_axes


def test_add_inames_to_insn(ctx):
    k = knl("{[i, j]: 0<=i<n and 0<=j<3}", "out[i] = 2*a[i] {id=s0}\nb[i, j] = j {id=s1}",
            arr("a", "n"), arr("b", "n, 3"))
    out = transforms.add_inames_to_insn(k, "j", "id:s0")
    assert out.statement("s0").within_inames == {"i", "j"}
    assert transforms.add_inames_to_insn(out, "j", "id:s0") is out
    check(k, out, ctx, n=5)


def test_add_inames_to_insn_errors():
    k = matvec()
    with pytest.raises(TransformError, match="statement 'insn' reduces over 'j'"):
        transforms.add_inames_to_insn(k, "j", "insn")
    with pytest.raises(TransformError, match="unknown iname 'q'"):
        transforms.add_inames_to_insn(k, "q", "insn")


def hw_kernel():
    k = knl("{[i]: 0<=i<8}", "out[i] = 2*a[i] {id=s0}\nb[0] = 1.5 {id=s1}",
            arr("a", "8"), arr("b", "1"))
    return transforms.tag_inames(k, "i:l.0")


def test_add_inames_for_unused_hw_axes(ctx):
    k = hw_kernel()
    assert k.statement("s1").within_inames == frozenset()
    out = transforms.add_inames_for_unused_hw_axes(k)
    assert out.statement("s1").within_inames == {"i"}
    assert transforms.add_inames_for_unused_hw_axes(out) is out
    assert transforms.add_inames_for_unused_hw_axes(k, within="id:s0") is k
    check(k, out, ctx)


def test_add_inames_for_unused_hw_axes_errors():
    k = knl("{[i, j]: 0<=i,j<n}", "out[i] = 2*a[i] {id=s0}\nb[j] = 1 {id=s1}\nc[0] = 1 {id=s2}",
            arr("a", "n"), arr("b", "n"), arr("c", "1"))
    with pytest.raises(TransformError, match=r"axis l.0 is used by several inames \(i, j\)"):
        transforms.add_inames_for_unused_hw_axes(transforms.tag_inames(k, "i:l.0, j:l.0"))
    auto = transforms.tag_inames(k, "i:l.0, j:l.auto")
    with pytest.raises(TransformError, match="statement 's1' misses a local axis while iname "
                                             "'j' is tagged l.auto"):
        transforms.add_inames_for_unused_hw_axes(auto)
    assert transforms.tag_inames(k, "i:l.0").tags_of("i") == {LocalTag(0)}


def test_affine_map_in_terms_of_another_iname(ctx):
    k = knl("{[i, j]: 0<=i<n and 0<=j<m}", "out[i, j] = a[i, j]*(i - j)", arr("a", "n, m"))
    out = transforms.affine_map_inames(k, "i", "p", "p = i + j")
    assert out.all_inames == {"p", "j"}
    assert "out[p - j, j] = a[p - j, j]*((p - j) - j)" in text(out)
    check(k, out, ctx, n=4, m=3)
