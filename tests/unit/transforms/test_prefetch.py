"""add_prefetch: tiles in local memory, footprints from isl, the barriers the schedule needs,
errors; each transformed kernel against the untransformed one on the CPU OpenCL device."""

from __future__ import annotations

import numpy as np
import pytest

import translator
import transforms
from translator.diagnostics import TransformError
from translator.ir.data import AddressSpace, NestingTag
from translator.ir.parse import GlobalArg
from translator.ir.tags import LocalTag
from translator.testing import auto_test_vs_ref


def matmul(order: str = "C"):
    return translator.make_kernel(
        "{[i, j, k]: 0<=i<n and 0<=j<m and 0<=k<l}", "c[i, j] = sum(k, a[i, k]*b[k, j])",
        [GlobalArg("a", np.float32, shape="n, l", order=order),
         GlobalArg("b", np.float32, shape="l, m", order=order), "..."])


def tiled(knl):
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.1")
    knl = transforms.split_iname(knl, "j", 16, outer_tag="g.1", inner_tag="l.0")
    return transforms.split_iname(knl, "k", 16)


def prefetched(knl):
    knl = transforms.add_prefetch(tiled(knl), "a", ["i_inner", "k_inner"])
    return transforms.add_prefetch(knl, "b", ["k_inner", "j_inner"])


def stencil():
    knl = translator.make_kernel(
        "{[i, j]: 1<=i<n-1 and 1<=j<n-1}",
        "v[i, j] = 0.25*(u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1])",
        [GlobalArg("u", np.float64, shape="n, n"), GlobalArg("v", np.float64, shape="n, n"),
         "..."])
    return knl


def stencil_tiles(knl):
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.1", inner_tag="l.1")
    return transforms.split_iname(knl, "j", 8, outer_tag="g.0", inner_tag="l.0")


# ---------------------------------------------------------------------------------------------
# structure


def test_matmul_tiles_in_local_memory():
    knl = prefetched(matmul())
    for name in ("a_fetch", "b_fetch"):
        temp = knl.temporaries[name]
        assert temp.shape == (16, 16) and temp.address_space == AddressSpace.LOCAL
    fetch = knl.id_to_statement["a_fetch_rule"]
    assert str(fetch.expression) == "a[a_dim_0 + 16*i_outer, a_dim_1 + 16*k_outer]"
    assert fetch.within_inames == {"a_dim_0", "a_dim_1", "i_outer", "k_outer"}
    # the array's fastest axis (k, stride 1 in C order) goes on local axis 0
    assert knl.tag_of("a_dim_1", LocalTag) == LocalTag(0)
    assert knl.tag_of("a_dim_0", LocalTag) == LocalTag(1)
    use = next(s for s in knl.statements if s.id == "insn")
    assert {"a_fetch_rule", "b_fetch_rule"} <= use.depends_on
    assert "a_fetch[i_inner, k_inner]*b_fetch[k_inner, j_inner]" in str(use.expression)
    assert not knl.substitutions


def test_exactly_the_barriers_the_schedule_needs():
    code = translator.generate_code(prefetched(matmul())).device_code
    # one after the copies, one before the next step's copies overwrite the tiles, and one
    # after the loop, before the store (no branch threaded into the loop's exit: PoCL, h75)
    assert code.count("barrier(CLK_LOCAL_MEM_FENCE)") == 3
    assert code.count("barrier(CLK_LOCAL_MEM_FENCE);  /* after a loop with barriers") == 1
    loop = code.index("for (int k_outer")
    fetch = code.index("a_fetch[a_dim_0")
    assert loop < fetch < code.index("barrier(") < code.index("for (int k_inner")


def test_temporary_follows_the_array_layout():
    knl = prefetched(matmul(order="F"))
    tags = knl.temporaries["a_fetch"].dim_tags
    assert tags == (NestingTag(level=0), NestingTag(level=1))
    assert knl.tag_of("a_dim_0", LocalTag) == LocalTag(0)   # now the fastest axis


def matmul_nt():
    """c = a b^T: b's tile is read across its contiguous axis (k) by the work items along j."""
    return translator.make_kernel(
        "{[i, j, k]: 0<=i<n and 0<=j<m and 0<=k<l}", "c[i, j] = sum(k, a[i, k]*b[j, k])",
        [GlobalArg("a", np.float64, shape="n, l"), GlobalArg("b", np.float64, shape="m, l"),
         "..."])


def transposed_tile(knl):
    return transforms.add_prefetch(tiled(knl), "b", ["k_inner", "j_inner"],
                                   storage_axes=["b_dim_1", "b_dim_0"], storage_padding=2)


def test_storage_axes_and_padding_lay_the_tile_out_transposed():
    knl = transposed_tile(matmul_nt())
    temp = knl.temporaries["b_fetch"]
    assert temp.shape == (16, 16)                         # axes as in the array: (j, k)
    assert tuple(t.stride for t in temp.dim_tags) == (1, 18)
    # the copy stays coalesced: the array's fastest axis (k) on local axis 0
    assert knl.tag_of("b_dim_1", LocalTag) == LocalTag(0)
    code = translator.generate_code(knl).device_code
    assert "__local double b_fetch[286]" in code          # 15 * 18 + 15 + 1 elements
    assert "b_fetch[b_dim_0 + b_dim_1 * 18]" in code
    # positions say the same; padding alone keeps the array's order
    same = transforms.add_prefetch(tiled(matmul_nt()), "b", ["k_inner", "j_inner"],
                                   storage_axes=[1, 0], storage_padding=2)
    assert same.temporaries["b_fetch"].dim_tags == temp.dim_tags
    padded = transforms.add_prefetch(tiled(matmul_nt()), "b", ["k_inner", "j_inner"],
                                     storage_padding=1)
    assert tuple(t.stride for t in padded.temporaries["b_fetch"].dim_tags) == (17, 1)


def test_stencil_needs_the_bounding_box():
    with pytest.raises(TransformError) as err:
        transforms.add_prefetch(stencil_tiles(stencil()), "u", ["i_inner", "j_inner"])
    assert "footprint of 'u' is not convex" in err.value.message
    assert "fetch_bounding_box=True" in err.value.message
    knl = transforms.add_prefetch(stencil_tiles(stencil()), "u", ["i_inner", "j_inner"],
                                  fetch_bounding_box=True)
    assert knl.temporaries["u_fetch"].shape == (10, 10)
    # 10 rows on 8 work items: split, inner on the local axis, outer a loop
    assert knl.tag_of("u_dim_0_inner", LocalTag) == LocalTag(1)
    assert knl.tag_of("u_dim_1_inner", LocalTag) == LocalTag(0)
    assert not knl.tags_of("u_dim_0_outer")


def test_names_and_private_copy():
    knl = transforms.add_prefetch(tiled(matmul()), "b", "k_inner", dim_arg_names=["kk"],
                                  temporary_name="bcol", fetch_insn_id="load_b",
                                  default_tag=None)
    temp = knl.temporaries["bcol"]
    # per work item: the k_inner values of its own column j
    assert temp.shape == (16,) and temp.address_space == AddressSpace.PRIVATE
    assert knl.id_to_statement["load_b"].within_inames == {"kk", "j_inner", "j_outer",
                                                           "k_outer"}


def test_whole_array_footprint_and_tagged_reads():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = w$c[i % 4] * a[i] + w[0]",
                                 [GlobalArg("w", np.float32, shape="4"),
                                  GlobalArg("a", np.float32, shape="n"), "..."])
    knl = transforms.split_iname(knl, "i", 32, outer_tag="g.0", inner_tag="l.0")
    out = transforms.add_prefetch(knl, "w$c[:]")
    assert out.temporaries["w_fetch"].shape == (4,)
    use = str(out.id_to_statement["insn"].expression)
    assert "w_fetch[(i_inner + i_outer*32) % 4]" in use and "w[0]" in use


def test_pragma_call_reaches_add_prefetch():
    knl = transforms.apply_call(tiled(matmul()), "add_prefetch", ("a", ["i_inner", "k_inner"]),
                                {"default_tag": "l.auto"})
    assert "a_fetch" in knl.temporaries


# ---------------------------------------------------------------------------------------------
# errors


def test_errors():
    knl = tiled(matmul())
    with pytest.raises(TransformError, match=r"unknown array 'aa' \(did you mean 'a'"):
        transforms.add_prefetch(knl, "aa", "k_inner")
    with pytest.raises(TransformError, match="statement 'insn' writes 'c'"):
        transforms.add_prefetch(knl, "c", "k_inner")
    with pytest.raises(TransformError, match="no read of 'a' in the selected statements"):
        transforms.add_prefetch(knl, "a", "k_inner", within="id:other")
    with pytest.raises(TransformError, match="no constant size"):
        transforms.add_prefetch(matmul(), "a", "k")
    with pytest.raises(TransformError, match="'k_inner' is already used"):
        transforms.add_prefetch(knl, "a", "k_inner", dim_arg_names=["k_inner"])
    with pytest.raises(TransformError, match="unknown iname 'q'"):
        transforms.add_prefetch(knl, "a", "q")
    with pytest.raises(TransformError, match=r"add_prefetch: storage_axes \[0\] must list "
                       r"each of the rule's arguments \(a_dim_0, a_dim_1\) exactly once"):
        transforms.add_prefetch(knl, "a", "k_inner", storage_axes=[0])
    with pytest.raises(TransformError, match="add_prefetch: 'k' is not an argument of the "
                       r"rule \(name or position; arguments: a_dim_0, a_dim_1\)"):
        transforms.add_prefetch(knl, "a", "k_inner", storage_axes=["k", "a_dim_0"])
    with pytest.raises(TransformError, match="add_prefetch: storage_padding must be an "
                       "integer >= 0, got -1"):
        transforms.add_prefetch(knl, "a", "k_inner", storage_padding=-1)


def test_local_copy_inside_a_local_loop_is_refused():
    # each work item (i_inner) would fill a shared tile with its own row: a race
    with pytest.raises(TransformError, match="filled inside local iname.*i_inner"):
        transforms.add_prefetch(tiled(matmul()), "a", "k_inner", default_tag="l.auto",
                                temporary_address_space="local")


# ---------------------------------------------------------------------------------------------
# against the reference, on the device


@pytest.mark.parametrize("sizes", [{"n": 37, "m": 29, "l": 45}, {"n": 16, "m": 32, "l": 16}])
def test_matmul_runs(ctx, sizes):
    auto_test_vs_ref(matmul(), ctx, prefetched(matmul()), parameters=sizes, rtol=1e-5)


def test_fortran_order_matmul_runs(ctx):
    auto_test_vs_ref(matmul("F"), ctx, prefetched(matmul("F")),
                     parameters={"n": 20, "m": 33, "l": 17}, rtol=1e-5)


def test_transposed_padded_tile_runs(ctx):
    knl = transposed_tile(matmul_nt())
    auto_test_vs_ref(matmul_nt(), ctx, knl, parameters={"n": 37, "m": 29, "l": 45}, rtol=0)


def test_stencil_with_halo_runs(ctx):
    knl = transforms.add_prefetch(stencil_tiles(stencil()), "u", ["i_inner", "j_inner"],
                                  fetch_bounding_box=True)
    auto_test_vs_ref(stencil(), ctx, knl, parameters={"n": 27}, rtol=1e-12)


def test_private_copy_runs(ctx):
    knl = transforms.add_prefetch(tiled(matmul()), "b", "k_inner", default_tag=None)
    auto_test_vs_ref(matmul(), ctx, knl, parameters={"n": 19, "m": 21, "l": 23}, rtol=1e-5)


def slab():
    return translator.make_kernel(
        "{[i, j, k]: 0<=i<n and 0<=j<4 and 0<=k<5}", "out[i] = sum([j, k], f[i, j, k]*j)",
        [GlobalArg("f", np.float64, shape="n, 4, 5"), "..."])


def test_subscripted_footprint_makes_the_local_axes(ctx):
    knl = transforms.tag_inames(slab(), "i:g.0")
    out = transforms.add_prefetch(knl, "f[i, :, :]", fetch_outer_inames="i")
    assert out.temporaries["f_fetch"].shape == (4, 5)        # the i axis has one value
    # no local axes yet: they are made, the fastest storage axis on l.0
    assert out.tag_of("f_dim_2", LocalTag) == LocalTag(0)
    assert out.tag_of("f_dim_1", LocalTag) == LocalTag(1)
    assert str(out.id_to_statement["f_fetch_rule"].expression) == "f[i, f_dim_1, f_dim_2]"
    auto_test_vs_ref(slab(), ctx, out, parameters={"n": 6}, rtol=1e-12)


STENCIL_C = """\
void sweep(int n, const double u[n][n], double v[n][n])
{
#pragma translate kernel
#pragma translate split_iname("i", 8, outer_tag="g.1", inner_tag="l.1")
#pragma translate split_iname("j", 8, outer_tag="g.0", inner_tag="l.0")
#pragma translate add_prefetch("u", ["i_inner", "j_inner"])
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      v[i][j] = u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1];
#pragma translate end kernel
}
"""


def test_pragma_error_points_at_the_pragma():
    from translator.driver import translate_text
    with pytest.raises(TransformError) as err:
        translate_text("stencil.c", STENCIL_C)
    assert (err.value.span.file, err.value.span.line) == ("stencil.c", 6)
    assert "the footprint of 'u' is not convex" in err.value.render()


def test_storage_padding_error_points_at_the_pragma():
    from translator.driver import translate_text
    src = STENCIL_C.replace('add_prefetch("u", ["i_inner", "j_inner"])',
                            'add_prefetch("u", ["i_inner", "j_inner"], '
                            'fetch_bounding_box=True, storage_padding=-1)')
    with pytest.raises(TransformError) as err:
        translate_text("stencil.c", src)
    assert (err.value.span.file, err.value.span.line) == ("stencil.c", 6)
    assert "add_prefetch: storage_padding must be an integer >= 0, got -1" \
        in err.value.render()
