"""precompute: structure of the result, errors, and the transformed kernels against
untransformed references on the CPU OpenCL device."""

from __future__ import annotations

import numpy as np
import pytest

import translator
import transforms
from translator.diagnostics import TransformError
from translator.ir.data import AddressSpace
from translator.ir.parse import GlobalArg
from translator.ir.tags import LocalTag
from translator.testing import auto_test_vs_ref

ARGS = [GlobalArg("a", np.float32, shape="n + 2"), "..."]


def rule_kernel(body: str = "out[i, j] = f(i) + f(i + 1)*j", rule: str = "f(x) := 2*a[x]"):
    """A rule used twice per statement, with i split by 16 onto groups."""
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<4}", f"{rule}\n{body}", ARGS)
    return transforms.split_iname(knl, "i", 16, outer_tag="g.0")


def reference(body: str = "out[i, j] = 2*a[i] + 2*a[i + 1]*j"):
    """The same computation without the rule (code generation needs rules expanded)."""
    return translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<4}", body, ARGS)


def statement(knl, sid):
    return knl.id_to_statement[sid]


# ---------------------------------------------------------------------------------------------
# structure


def test_precompute_structure():
    knl = transforms.precompute(rule_kernel(), "f", "i_inner")
    assert "f" not in knl.substitutions           # every use replaced: the rule goes
    temp = knl.temporaries["f_0"]
    assert temp.shape == (17,) and temp.address_space == AddressSpace.PRIVATE
    compute = statement(knl, "f")
    assert str(compute.assignee) == "f_0[x]"
    assert str(compute.expression) == "2*a[16*i_outer + x]"
    assert compute.within_inames == {"i_outer", "x"}
    assert {str(c) for c in compute.predicates} == {"16*i_outer + x <= n"}
    use = next(s for s in knl.statements if s.id != "f")
    assert "f" in use.depends_on
    assert "f_0[i_inner]" in str(use.expression) and "f_0[i_inner + 1]" in str(use.expression)


def test_precompute_names_order_and_tags():
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<m}",
                                 "g(x, y) := a[x, y]\nout[i, j] = g(i, j) + g(i, j + 1)",
                                 [GlobalArg("a", np.float32, shape="n, m + 1"), "..."])
    knl = transforms.split_iname(knl, "i", 4, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.split_iname(knl, "j", 8, outer_tag="g.1", inner_tag="l.1")
    out = transforms.precompute(knl, "g", ["i_inner", "j_inner"], storage_axes=["y", "x"],
                                precompute_inames="px, py", temporary_name="tile",
                                compute_insn_id="fill", storage_axis_to_tag={"x": "l.0"},
                                default_tag="l.1")
    temp = out.temporaries["tile"]
    assert temp.shape == (9, 4)                   # storage order y, x
    assert temp.address_space == AddressSpace.LOCAL
    assert out.tag_of("px", LocalTag) == LocalTag(0) and out.tag_of("py", LocalTag) == LocalTag(1)
    assert str(statement(out, "fill").assignee) == "tile[py, px]"


def test_l_auto_splits_to_fit_the_work_group():
    knl = translator.make_kernel("{[i]: 0<=i<n}",
                                 "f(x) := a[x]\nout[i] = f(i) + f(i + 1) + f(i + 2)", ARGS)
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.0", inner_tag="l.0")
    out = transforms.precompute(knl, "f", "i_inner", default_tag="l.auto")
    assert out.temporaries["f_0"].shape == (10,)
    # 10 values on an axis of 8 work items: split, the inner part on l.0, the outer a loop
    assert out.tag_of("x_inner", LocalTag) == LocalTag(0)
    assert not out.tags_of("x_outer")
    assert out.temporaries["f_0"].address_space == AddressSpace.LOCAL


def test_subst_use_list_defines_the_footprint_and_tag_selects_uses():
    knl = rule_kernel(body="out[i, j] = f$one(i) + f(i + 1)*j")
    out = transforms.precompute(knl, ["f$one(i_inner + 16*i_outer)",
                                      "f$one(i_inner + 16*i_outer + 1)"], "i_inner")
    assert out.temporaries["f_0"].shape == (17,)
    assert "f" in out.substitutions               # the untagged use is left alone
    use = next(s for s in out.statements if s.id != "f")
    assert "f_0[i_inner]" in str(use.expression) and "f(i + 1)" not in str(use.expression)


def test_pragma_call_reaches_precompute():
    knl = transforms.apply_call(rule_kernel(), "precompute", ("f", ["i_inner"]),
                                {"temporary_name": "vals"})
    assert "vals" in knl.temporaries


# ---------------------------------------------------------------------------------------------
# errors


def test_unknown_rule():
    with pytest.raises(TransformError, match=r"unknown substitution rule 'f2' \(did you mean "
                                             "'f'"):
        transforms.precompute(rule_kernel(), "f2", "i_inner")


def test_no_use_matches():
    with pytest.raises(TransformError, match="no use of 'f' matches"):
        transforms.precompute(rule_kernel(), "f", "i_inner", within="id:nothing")


def test_non_convex_footprint_needs_bounding_box():
    knl = translator.make_kernel(
        "{[i, j]: 1<=i<n-1 and 1<=j<n-1}",
        "f(x, y) := a[x, y]\nout[i, j] = f(i-1, j) + f(i+1, j) + f(i, j-1) + f(i, j+1)",
        [GlobalArg("a", np.float32, shape="n, n"), "..."])
    knl = transforms.split_iname(knl, "i", 4, outer_tag="g.0")
    knl = transforms.split_iname(knl, "j", 4, outer_tag="g.1")
    with pytest.raises(TransformError, match="footprint of 'f' is not convex.*"
                                             "fetch_bounding_box=True"):
        transforms.precompute(knl, "f", "i_inner, j_inner")
    out = transforms.precompute(knl, "f", "i_inner, j_inner", fetch_bounding_box=True)
    assert out.temporaries["f_0"].shape == (6, 6)


def test_footprint_growing_with_parameters():
    with pytest.raises(TransformError, match="no constant size"):
        transforms.precompute(reference_with_rule(), "f", "i")


def reference_with_rule():
    return translator.make_kernel("{[i]: 0<=i<n}", "f(x) := a[x]\nout[i] = f(i)", ARGS)


def test_use_outside_the_given_footprint():
    with pytest.raises(TransformError, match="outside the footprint given"):
        transforms.precompute(rule_kernel(), ["f(i_inner + 16*i_outer)"], "i_inner")


def test_non_affine_argument():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "f(x) := a[x]\nout[i] = f(idx[i])",
                                 [GlobalArg("idx", np.int32, shape="n"), *ARGS])
    with pytest.raises(TransformError, match="cannot compute the footprint of 'f'"):
        transforms.precompute(knl, "f", "i")


def test_bad_names():
    with pytest.raises(TransformError, match="'a' is already used"):
        transforms.precompute(rule_kernel(), "f", "i_inner", precompute_inames="a")
    with pytest.raises(TransformError, match="not an argument of the rule"):
        transforms.precompute(rule_kernel(), "f", "i_inner", storage_axes=["z"])


# ---------------------------------------------------------------------------------------------
# against the reference, on the device


def test_private_precompute_runs(ctx):
    auto_test_vs_ref(reference(), ctx, transforms.precompute(rule_kernel(), "f", "i_inner"),
                     parameters={"n": 37})


def test_local_precompute_runs(ctx):
    knl = translator.make_kernel("{[i]: 0<=i<n}",
                                 "f(x) := a[x]*a[x]\nout[i] = f(i) - f(i + 1) + f(i + 2)", ARGS)
    ref = translator.make_kernel(
        "{[i]: 0<=i<n}", "out[i] = a[i]*a[i] - a[i + 1]*a[i + 1] + a[i + 2]*a[i + 2]", ARGS)
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.0", inner_tag="l.0")
    out = transforms.precompute(knl, "f", "i_inner", default_tag="l.auto")
    code = translator.generate_code(out).device_code
    assert "__local float f_0[10];" in code and code.count("barrier(") == 1
    auto_test_vs_ref(ref, ctx, out, parameters={"n": 45}, rtol=1e-6)


def test_precompute_inside_a_reduction_runs(ctx):
    knl = translator.make_kernel("{[i, k]: 0<=i<n and 0<=k<m}",
                                 "w(y) := 3*v[y]\nout[i] = sum(k, a[i, k]*w(k))",
                                 [GlobalArg("a", np.float64, shape="n, m"),
                                  GlobalArg("v", np.float64, shape="m"), "..."])
    ref = translator.make_kernel("{[i, k]: 0<=i<n and 0<=k<m}", "out[i] = sum(k, a[i, k]*3*v[k])",
                                 [GlobalArg("a", np.float64, shape="n, m"),
                                  GlobalArg("v", np.float64, shape="m"), "..."])
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.0", inner_tag="l.0")
    knl = transforms.split_iname(knl, "k", 8)
    out = transforms.precompute(knl, "w", "k_inner", default_tag="l.auto")
    assert statement(out, "w").within_inames == {"k_outer", "y"}
    auto_test_vs_ref(ref, ctx, out, parameters={"n": 21, "m": 19}, rtol=1e-12)


def test_outer_inames_include_loops_where_the_data_changes():
    knl = translator.make_kernel(
        "{[t, i, j]: 0<=t<3 and 0<=i<8 and 0<=j<4}",
        """f(x) := u[x]
        u[i] = u[i] + 1  {id=w, inames=t:i}
        v[t, i, j] = f(i) * j  {id=r, dep=w}
        """, [GlobalArg("u", np.float32, shape="8"), "..."])
    out = transforms.precompute(knl, "f", "i")
    # u changes in every step t, so the copy is made in every step; j changes nothing
    assert out.id_to_statement["f"].within_inames == {"t", "x"}
    assert out.id_to_statement["f"].depends_on == {"w"}


# ---------------------------------------------------------------------------------------------
# precompute_inames naming an existing iname (loopy's test_precompute_some_exist)


def tiled_matmul():
    knl = translator.make_kernel(
        "{[i,j,k]: 0<=i<m and 0<=j<n and 0<=k<ell}", "c[i,j] = c[i,j] + b[k,j]*a[i,k]",
        [GlobalArg("a", np.float64, shape="m, ell"), GlobalArg("b", np.float64, shape="ell, n"),
         GlobalArg("c", np.float64, shape="m, n"), "..."])
    ref = knl
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.0", inner_tag="l.1")
    knl = transforms.split_iname(knl, "j", 8, outer_tag="g.1", inner_tag="l.0")
    knl = transforms.split_iname(knl, "k", 8)
    knl = transforms.assume(knl, "n mod 8 = 0 and m mod 8 = 0 and ell mod 8 = 0")
    knl = transforms.extract_subst(knl, "a_acc", "a[i1,i2]", parameters="i1, i2")
    knl = transforms.extract_subst(knl, "b_acc", "b[i1,i2]", parameters="i1, i2")
    return ref, knl


def test_precompute_inames_may_reuse_an_existing_iname(ctx):
    ref, knl = tiled_matmul()
    outer = "i_outer, j_outer, k_outer"
    knl = transforms.precompute(knl, "a_acc", "k_inner,i_inner", precompute_inames="ktemp,itemp",
                                precompute_outer_inames=outer, default_tag="l.auto")
    knl = transforms.precompute(knl, "b_acc", "j_inner,k_inner",
                                precompute_inames="itemp,k2temp",
                                precompute_outer_inames=outer, default_tag="l.auto")
    assert "itemp" in statement(knl, "b_acc").within_inames
    assert sum("itemp" in translator.ir.isl_glue.inames_of(d) for d in knl.domains) == 1
    assert {knl.tag_of(n, LocalTag).axis for n in ("itemp", "k2temp")} == {0, 1}
    auto_test_vs_ref(ref, ctx, knl, parameters=dict(n=16, m=24, ell=16))


def test_precompute_inames_refuses_an_existing_iname_of_another_extent():
    knl = translator.make_kernel("{[i, j, q]: 0<=i<n and 0<=j<4 and 0<=q<3}",
                                 """f(x) := 2*a[x]
                                    out[i, j] = f(i) + f(i + 1)*j
                                    other[q] = q""", ARGS)
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0")
    with pytest.raises(TransformError, match="existing iname 'q' cannot index the storage of "
                       "'f': it must run over 0 <= q < 17"):
        transforms.precompute(knl, "f", "i_inner", precompute_inames="q")
    with pytest.raises(TransformError, match="'i_inner' cannot index the storage of 'f': the "
                       "footprint is taken inside that loop"):
        transforms.precompute(knl, "f", "i_inner", precompute_inames="i_inner")
