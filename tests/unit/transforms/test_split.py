"""split_iname, chunk_iname, join_inames: structure, domains (as point sets), errors."""

from __future__ import annotations


import pytest
from pymbolic import parse

import transforms
from tests.unit.transforms.builders import assign, build, evaluate_index, points
from translator.diagnostics import TransformError
from translator.ir import isl_glue
from translator.ir.expr import Reduction
from translator.ir.kernel import SubstitutionRule
from translator.ir.tags import ForceSequentialTag, GroupTag, LocalTag, UnrollTag


def saxpy():
    return build("{[i]: 0<=i<n}", [assign("s0", "y[i]", "a*x[i] + y[i]", ["i"])])


def dom(text: str):
    return isl_glue.parse_domain(text)


# ---------------------------------------------------------------------------------------------
# split_iname


def test_split_structure():
    knl = transforms.split_iname(saxpy(), "i", 128, outer_tag="g.0", inner_tag="l.0")
    assert knl.domains == (dom("{[i_outer, i_inner]: 0<=i_inner<128 and "
                               "0<=i_inner + 128*i_outer<n}"),)
    assert knl.all_inames == {"i_outer", "i_inner"}
    assert isl_glue.inames_of(knl.domains[0]) == ("i_outer", "i_inner")
    s = knl.statement("s0")
    idx = parse("i_inner + i_outer*128")
    assert s.assignee == parse("y")[idx]
    assert s.expression == parse("a*x[i_inner + i_outer*128] + y[i_inner + i_outer*128]")
    assert s.within_inames == {"i_outer", "i_inner"}
    assert knl.tags_of("i_outer") == {GroupTag(0)} and knl.tags_of("i_inner") == {LocalTag(0)}
    isl_glue.check_forest(knl.domains)


def test_split_covers_the_same_points():
    knl = transforms.split_iname(saxpy(), "i", 4)
    for n in (0, 1, 7, 8, 9):
        pts = points(knl, ["i_outer", "i_inner"], n=n)
        assert sorted(o * 4 + i for o, i in pts) == list(range(n))


def test_split_default_names_are_made_unique():
    knl = build("{[i]: 0<=i<n}", [assign("s0", "i_outer[i]", "1", ["i"])])
    out = transforms.split_iname(knl, "i", 2)
    assert out.all_inames == {"i_outer_0", "i_inner"}


def test_split_explicit_names_and_ord_tag_allowed():
    knl = transforms.tag_inames(saxpy(), "i:ord")
    out = transforms.split_iname(knl, "i", 8, outer_iname="io", inner_iname="ii",
                                 inner_tag="unr")
    assert out.all_inames == {"io", "ii"}
    assert out.tags_of("ii") == {UnrollTag()}
    assert "i" not in out.iname_tags   # split inames do not inherit tags


def test_split_within_keeps_the_old_iname_for_other_statements():
    knl = build("{[i]: 0<=i<n}", [assign("s0", "a[i]", "1", ["i"]),
                                  assign("s1", "b[i]", "2", ["i"])])
    out = transforms.split_iname(knl, "i", 16, within="id:s0")
    assert out.all_inames == {"i", "i_outer", "i_inner"}
    assert out.statement("s1") is knl.statement("s1")
    assert out.statement("s0").within_inames == {"i_outer", "i_inner"}
    assert points(out, ["i"], n=5) == {(k,) for k in range(5)}
    pts = points(out, ["i_outer", "i_inner"], n=40)
    assert sorted(o * 16 + i for o, i in pts) == list(range(40))


def test_split_within_matching_nothing_returns_same_kernel():
    knl = saxpy()
    assert transforms.split_iname(knl, "i", 16, within="id:nope") is knl


def test_split_reduction_iname():
    red = Reduction("sum", ("k",), parse("a[i, k]*b[k]"))
    knl = build("{[i, k]: 0<=i<n and 0<=k<m}", [assign("s0", "out[i]", red, ["i"])])
    out = transforms.split_iname(knl, "k", 4)
    new = out.statement("s0").expression
    assert new == Reduction("sum", ("k_outer", "k_inner"),
                            parse("a[i, k_inner + k_outer*4]*b[k_inner + k_outer*4]"))
    assert out.statement("s0").within_inames == {"i"}
    assert out.all_inames == {"i", "k_outer", "k_inner"}


def test_split_predicates_and_rules():
    rule = SubstitutionRule(name="f", arguments=("x",), expression=parse("a[x] + i"))
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "f(i)", ["i"],
                                         predicates=frozenset({parse("i > 2")}))],
                rules=[rule])
    out = transforms.split_iname(knl, "i", 8)
    idx = parse("i_inner + i_outer*8")
    s = out.statement("s0")
    assert s.predicates == {parse("i_inner + i_outer*8 > 2")}
    assert s.expression == parse("f")(idx)
    assert out.substitutions["f"].expression == parse("a[x]") + idx


def test_split_iname_bounding_a_nested_domain():
    knl = build(["{[i]: 0<=i<n}", "{[j]: 0<=j<i}"],
                [assign("s0", "out[i, j]", "1", ["i", "j"])])
    out = transforms.split_iname(knl, "i", 3)
    isl_glue.check_forest(out.domains)
    assert out.all_inames == {"i_outer", "i_inner", "j"}
    pts = points(out, ["i_outer", "i_inner", "j"], n=7)
    assert sorted((o * 3 + i, j) for o, i, j in pts) == sorted(points(knl, ["i", "j"], n=7))


def test_split_updates_priorities_and_records_slabs():
    knl = build("{[i, j]: 0<=i<n and 0<=j<n}", [assign("s0", "out[i, j]", "1", ["i", "j"])])
    knl = transforms.prioritize_loops(knl, "j,i")
    out = transforms.split_iname(knl, "i", 4, slabs=(0, 1))
    assert out.loop_priority == {("j", "i_outer", "i_inner")}
    assert out.options.extra["iname_slab_increments"] == (("i_outer", 0, 1),)


def test_split_tags_like_and_unused():
    knl = build("{[i, j]: 0<=i<n and 0<=j<n}", [assign("s0", "out[i, j]", "1", ["i", "j"])])
    knl = transforms.tag_inames(knl, "j:g.0")
    out = transforms.split_iname(knl, "i", 4, outer_tag="unused.g", inner_tag="like.j")
    assert out.tags_of("i_outer") == {GroupTag(1)}
    assert out.tags_of("i_inner") == {GroupTag(0)}


@pytest.mark.parametrize("args, kwargs, message", [
    (("q", 4), {}, "split_iname: unknown iname 'q'"),
    (("ii", 4), {}, "split_iname: unknown iname 'ii' (did you mean 'i'?)"),
    (("i", 0), {}, "split_iname: inner_length must be a positive integer, got 0"),
    (("i", -2), {}, "split_iname: inner_length must be a positive integer, got -2"),
    (("i", "4"), {}, "split_iname: inner_length must be a positive integer, got '4'"),
    (("i", 4), {"outer_tag": "q.0"}, "split_iname: bad outer_tag: unknown iname tag 'q.0'"),
    (("i", 4), {"inner_tag": 3}, "split_iname: inner_tag must be a tag string, got 3"),
    (("i", 4), {"slabs": (1,)}, "split_iname: slabs must be a pair of non-negative integers"),
    (("i", 4), {"outer_iname": "x"}, "split_iname: outer_iname 'x' is already used"),
    (("i", 4), {"outer_iname": "z", "inner_iname": "z"},
     "split_iname: inner_iname 'z' is already used"),
    (("i", 4), {"inner_iname": "1x"}, "split_iname: inner_iname must be an identifier"),
    (("i", 4), {"outer_tag": "like.q"}, "split_iname: unknown iname 'q'"),
])
def test_split_errors(args, kwargs, message):
    with pytest.raises(TransformError) as err:
        transforms.split_iname(saxpy(), *args, **kwargs)
    assert message in err.value.message


def test_split_tagged_iname_needs_do_tagged_check_false():
    knl = transforms.tag_inames(saxpy(), {"i": "l.0"})
    with pytest.raises(TransformError, match="cannot split iname 'i': it is already tagged "
                                             "'l.0'"):
        transforms.split_iname(knl, "i", 4)
    out = transforms.split_iname(knl, "i", 4, do_tagged_check=False)
    assert out.all_inames == {"i_outer", "i_inner"} and not out.iname_tags


def test_split_second_tag_conflict_needs_force():
    knl = transforms.split_iname(saxpy(), "i", 4, outer_tag="g.0")
    assert knl.tags_of("i_outer") == {GroupTag(0)}
    with pytest.raises(TransformError, match="already tagged 'g.0'"):
        transforms.tag_inames(knl, "i_outer:g.1")
    assert transforms.tag_inames(knl, "i_outer:g.1", force=True).tags_of("i_outer") == \
        {GroupTag(1)}


# ---------------------------------------------------------------------------------------------
# chunk_iname


@pytest.mark.parametrize("n, chunks", [(10, 4), (10, 2), (3, 4), (12, 3), (1, 1)])
def test_chunk_constant_extent(n, chunks):
    knl = build(f"{{[i]: 0<=i<{n}}}", [assign("s0", "out[i]", "a[i]", ["i"])])
    out = transforms.chunk_iname(knl, "i", chunks)
    idx = out.statement("s0").expression.index
    pts = points(out, ["i_outer", "i_inner"])
    assert {o for o, _ in pts} <= set(range(chunks))
    values = {o: sorted(evaluate_index(idx, i_outer=o, i_inner=i) for oo, i in pts if oo == o)
              for o, _ in pts}
    flat = [v for o in sorted(values) for v in values[o]]
    assert flat == list(range(n))            # contiguous chunks, in order
    lengths = [len(values[o]) for o in sorted(values)]
    assert max(lengths) - min(lengths) <= 1


def test_chunk_parametric_extent():
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "a[i]", ["i"])])
    out = transforms.chunk_iname(knl, "i", 3, outer_tag="g.0")
    idx = out.statement("s0").expression.index
    for n in (0, 1, 5, 9, 11):
        pts = points(out, ["i_outer", "i_inner"], n=n)
        got = sorted(evaluate_index(idx, i_outer=o, i_inner=i, n=n) for o, i in pts)
        assert got == list(range(n))
    assert out.tags_of("i_outer") == {GroupTag(0)}


def test_chunk_divisible_extent_is_plain_split():
    knl = build("{[i]: 0<=i<12}", [assign("s0", "out[i]", "a[i]", ["i"])])
    out = transforms.chunk_iname(knl, "i", 3)
    assert out.statement("s0").assignee.index == parse("i_inner + i_outer*4")


def test_chunk_errors():
    tri = build("{[i, j]: 0<=i<n and 0<=j<i}", [assign("s0", "o[i, j]", "1", ["i", "j"])])
    with pytest.raises(TransformError, match="chunk_iname: iname 'j' does not range over "
                                             "0 <= j < N"):
        transforms.chunk_iname(tri, "j", 2)
    shifted = build("{[i]: 1<=i<n}", [assign("s0", "o[i]", "1", ["i"])])
    with pytest.raises(TransformError, match="does not range over 0 <= i < N"):
        transforms.chunk_iname(shifted, "i", 2)
    nested = build(["{[i]: 0<=i<n}", "{[j]: 0<=j<i}"], [assign("s0", "o[i, j]", "1", ["i", "j"])])
    with pytest.raises(TransformError, match="iname 'i' bounds a nested domain"):
        transforms.chunk_iname(nested, "i", 2)
    unbounded = build("{[i]: i>=0}", [assign("s0", "o[i]", "1", ["i"])])
    with pytest.raises(TransformError, match="does not range over 0 <= i < N"):
        transforms.chunk_iname(unbounded, "i", 2)
    with pytest.raises(TransformError, match="num_chunks must be a positive integer"):
        transforms.chunk_iname(saxpy(), "i", 0)


# ---------------------------------------------------------------------------------------------
# join_inames


def test_join_structure_and_points():
    knl = build("{[i, j]: 0<=i<n and 0<=j<16}", [assign("s0", "out[i, j]", "a[i, j]",
                                                        ["i", "j"])])
    out = transforms.join_inames(knl, ["i", "j"], tag="g.0")
    assert out.all_inames == {"j_and_i"}
    s = out.statement("s0")
    assert s.assignee == parse("out[j_and_i // 16, j_and_i % 16]")
    assert s.within_inames == {"j_and_i"}
    assert out.tags_of("j_and_i") == {GroupTag(0)}
    assert points(out, ["j_and_i"], n=3) == {(k,) for k in range(48)}


def test_join_with_lower_bounds_and_three_inames():
    knl = build("{[i, j, k]: 1<=i<=n and m<=j<m+3 and 2<=k<4}",
                [assign("s0", "out[i, j, k]", "1", ["i", "j", "k"])])
    out = transforms.join_inames(knl, "i,j,k", new_iname="ijk")
    idx = out.statement("s0").assignee.index
    pts = points(out, ["ijk"], n=2, m=5)
    got = sorted(tuple(evaluate_index(e, ijk=v, m=5) for e in idx) for (v,) in pts)
    assert got == sorted(points(knl, ["i", "j", "k"], n=2, m=5))


def test_join_reduction_and_triangle():
    red = Reduction("sum", ("i", "j"), parse("a[i, j]"))
    knl = build("{[i, j]: 0<=i<4 and 0<=j<=i}", [assign("s0", "out[0]", red)])
    out = transforms.join_inames(knl, ["i", "j"], new_iname="ij")
    e = out.statement("s0").expression
    assert e.inames == ("ij",)
    pts = points(out, ["ij"])
    got = {(evaluate_index(parse("ij // 4"), ij=v), evaluate_index(parse("ij % 4"), ij=v))
           for (v,) in pts}
    assert got == points(knl, ["i", "j"])


def test_join_within_keeps_old_inames():
    knl = build("{[i, j]: 0<=i<n and 0<=j<4}", [assign("s0", "a[i, j]", "1", ["i", "j"]),
                                                assign("s1", "b[i, j]", "2", ["i", "j"])])
    out = transforms.join_inames(knl, ["i", "j"], new_iname="ij", within="id:s1")
    assert out.all_inames == {"i", "j", "ij"}
    assert out.statement("s0") is knl.statement("s0")
    assert points(out, ["ij"], n=2) == {(k,) for k in range(8)}
    assert points(out, ["i", "j"], n=2) == points(knl, ["i", "j"], n=2)


def test_join_nested_domain_bounded_by_joined_iname():
    knl = build(["{[i, j]: 0<=i<3 and 0<=j<2}", "{[k]: 0<=k<i}"],
                [assign("s0", "out[i, j, k]", "1", ["i", "j", "k"])])
    out = transforms.join_inames(knl, ["i", "j"], new_iname="ij")
    isl_glue.check_forest(out.domains)
    pts = points(out, ["ij", "k"])
    assert sorted((v // 2, v % 2, k) for v, k in pts) == sorted(points(knl, ["i", "j", "k"]))


@pytest.mark.parametrize("domains, inames, message", [
    (["{[i, j]: 0<=i<n and 0<=j<n}"], ["i", "j"],
     "join_inames: iname 'j' needs a constant length"),
    (["{[i]: 0<=i<4}", "{[j]: 0<=j<4}"], ["i", "j"], "are defined by different domains"),
    (["{[i, j]: 0<=i<4 and 0<=j<4}"], ["i", "i"], "an iname appears twice"),
    (["{[i, j]: 0<=i<4 and 0<=j<4}"], [], "join_inames: no inames to join"),
    (["{[i, j]: 0<=i<4 and 0<=j<4}"], ["i", "q"], "join_inames: unknown iname 'q'"),
    (["{[i, j]: i<=4 and 0<=j<4}"], ["i", "j"],
     "join_inames: the lower bound of iname 'i' is not a single affine expression"),
    (["{[i, j]: 0<=i<4 and j>=0}"], ["i", "j"], "iname 'j' needs a constant length"),
    (["{[i, j]: 0<=i<4 and 0<=j<4}"], 5, "join_inames: inames must be names, got 5"),
])
def test_join_errors(domains, inames, message):
    knl = build(domains, [assign("s0", "o[i, j]", "1", ["i", "j"])])
    with pytest.raises(TransformError) as err:
        transforms.join_inames(knl, inames)
    assert message in err.value.message


def test_join_errors_on_partial_use():
    knl = build("{[i, j]: 0<=i<4 and 0<=j<4}", [assign("s0", "o[i]", "0", ["i"]),
                                                 assign("s1", "o[i]", "o[i] + 1", ["i", "j"])])
    with pytest.raises(TransformError, match="statement 's0' is not inside j"):
        transforms.join_inames(knl, ["i", "j"])
    red = Reduction("sum", ("j",), parse("a[0, j]"))
    knl = build("{[i, j]: 0<=i<4 and 0<=j<4}", [assign("s0", "o[0]", red)])
    with pytest.raises(TransformError, match="is over only some of the joined inames"):
        transforms.join_inames(knl, ["i", "j"], within="id:s0")


def test_join_tag_conflicts_are_errors():
    knl = build("{[i, j]: 0<=i<4 and 0<=j<4}", [assign("s0", "o[i, j]", "1", ["i", "j"])])
    with pytest.raises(TransformError, match="join_inames: bad tag"):
        transforms.join_inames(knl, ["i", "j"], tag="l.x")
    assert transforms.join_inames(knl, ["i", "j"], tag="ord").tags_of("j_and_i") == \
        {ForceSequentialTag()}


# ---------------------------------------------------------------------------------------------
# property tests: bounds and factors


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=40, deadline=None)
@given(lo=st.integers(-5, 5), size=st.integers(0, 12), length=st.integers(1, 6),
       chunks=st.integers(1, 5))
def test_split_and_chunk_preserve_points(lo, size, length, chunks):
    knl = build(f"{{[i, j]: {lo}<=i<{lo + size} and 0<=j<2}}",
                [assign("s0", "out[i, j]", "1", ["i", "j"])])
    split = transforms.split_iname(knl, "i", length)
    idx = split.statement("s0").assignee.index[0]
    got = sorted((evaluate_index(idx, i_outer=o, i_inner=i), j)
                 for o, i, j in points(split, ["i_outer", "i_inner", "j"]))
    assert got == sorted(points(knl, ["i", "j"]))
    joined = transforms.join_inames(knl, ["i", "j"], new_iname="ij")
    idx = joined.statement("s0").assignee.index
    got = sorted(tuple(evaluate_index(e, ij=v) for e in idx) for (v,) in points(joined, ["ij"]))
    assert got == sorted(points(knl, ["i", "j"]))
    if lo == 0:
        chunked = transforms.chunk_iname(knl, "i", chunks)
        idx = chunked.statement("s0").assignee.index[0]
        got = sorted((evaluate_index(idx, i_outer=o, i_inner=i), j)
                     for o, i, j in points(chunked, ["i_outer", "i_inner", "j"]))
        assert got == sorted(points(knl, ["i", "j"]))
