"""Fetch loops whose trip count varies across a work group run a small constant count instead,
their statements guarded (`TreeEmitter.uniform_trips`): the tile-plus-halo copy of a prefetch,
``for (o = 0; 16*o <= 17 - l; ++o)``, becomes ``for (o = 0; o <= 1; ++o)`` with the bound
tested inside, so that GPU compilers unroll it (measured in bench/RESULTS.md).  Each kernel
also runs on the CPU OpenCL device against the untransformed one."""

from __future__ import annotations

import re

import numpy as np
import pytest

import translator
import transforms
from translator.codegen.emit import MAX_UNIFORM_TRIPS
from translator.ir.parse import GlobalArg
from translator.testing import auto_test_vs_ref


def stencil_2d():
    return translator.make_kernel(
        "{[i, j]: 1<=i<n-1 and 1<=j<n-1}",
        "v[i, j] = 0.2*(u[i, j] + u[i-1, j] + u[i+1, j] + u[i, j-1] + u[i, j+1])",
        [GlobalArg("u", np.float64, shape="n, n"), GlobalArg("v", np.float64, shape="n, n"),
         "..."])


def prefetched_2d(ti: int, tj: int):
    knl = transforms.split_iname(stencil_2d(), "i", ti, outer_tag="g.1", inner_tag="l.1")
    knl = transforms.split_iname(knl, "j", tj, outer_tag="g.0", inner_tag="l.0")
    return transforms.add_prefetch(knl, "u", ["i_inner", "j_inner"], fetch_bounding_box=True)


def stencil_1d(radius: int):
    """out[i] = sum of u[i-r..i+r] written out, so that the fetch covers 2r + 4 values."""
    terms = " + ".join(f"u[i + {d}]" for d in range(-radius, radius + 1))
    return translator.make_kernel(
        f"{{[i]: {radius}<=i<n-{radius}}}", f"out[i] = {terms}",
        [GlobalArg("u", np.float64, shape="n"), "..."])


def prefetched_1d(radius: int):
    knl = transforms.split_iname(stencil_1d(radius), "i", 4, outer_tag="g.0", inner_tag="l.0")
    return transforms.add_prefetch(knl, "u", ["i_inner"])


def device_code(knl) -> str:
    return translator.generate_code(knl).device_code


def fetch_loops(code: str) -> list[str]:
    return re.findall(r"for \(int (u_dim_\d+_outer) = [^;]*; ([^;]*);", code)


@pytest.mark.parametrize("ti, tj", [(16, 16), (8, 32)])
def test_halo_fetch_loops_have_constant_trip_counts(ti, tj):
    code = device_code(prefetched_2d(ti, tj))
    loops = fetch_loops(code)
    assert [name for name, _ in loops] == ["u_dim_0_outer", "u_dim_1_outer"]
    assert all(test == f"{name} <= 1" for name, test in loops), loops
    assert code.count("#pragma unroll") == 2
    # the exact bound moved into guards: the first pass of every work item, the second of two
    assert f"u_dim_0_inner + {ti} * u_dim_0_outer <= {ti + 1}" in code
    assert f"u_dim_1_inner + {tj} * u_dim_1_outer <= {tj + 1}" in code


@pytest.mark.parametrize("ti, tj, n", [(16, 16, 37), (8, 32, 45), (16, 16, 34)])
def test_halo_fetch_with_constant_trips_runs(ctx, ti, tj, n):
    auto_test_vs_ref(stencil_2d(), ctx, prefetched_2d(ti, tj), parameters={"n": n}, rtol=1e-12)


def test_several_passes_per_work_item(ctx):
    """radius 5 on 4 work items: 14 values, 4 passes for two work items and 3 for the others."""
    code = device_code(prefetched_1d(5))
    assert fetch_loops(code) == [("u_dim_0_outer", "u_dim_0_outer <= 3")]
    for n in (11, 29, 30):
        auto_test_vs_ref(stencil_1d(5), ctx, prefetched_1d(5), parameters={"n": n},
                         rtol=1e-12)


def test_many_passes_keep_the_exact_bound(ctx):
    """Beyond MAX_UNIFORM_TRIPS passes the loop keeps its work-item-dependent bound."""
    radius = 2 * MAX_UNIFORM_TRIPS + 1   # 2*radius + 4 values: 9 or 10 passes per work item
    code = device_code(prefetched_1d(radius))
    (name, test), = fetch_loops(code)
    assert "u_dim_0_inner" in test and "#pragma unroll" not in code
    auto_test_vs_ref(stencil_1d(radius), ctx, prefetched_1d(radius),
                     parameters={"n": 4 * radius + 3}, rtol=1e-12)


def test_uniform_fetch_loops_are_unchanged():
    """A tile fetch whose passes are the same for every work item (16x16 matmul tiles of a
    16x16 group) prints as before: no rounding up, no unroll pragma."""
    knl = translator.make_kernel(
        "{[i, j, k]: 0<=i<n and 0<=j<n and 0<=k<n}", "c[i, j] = sum(k, a[i, k]*b[k, j])",
        [GlobalArg("a", np.float32, shape="n, n"), GlobalArg("b", np.float32, shape="n, n"),
         "..."])
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.1")
    knl = transforms.split_iname(knl, "j", 16, outer_tag="g.1", inner_tag="l.0")
    knl = transforms.split_iname(knl, "k", 16)
    knl = transforms.add_prefetch(knl, "a", ["i_inner", "k_inner"])
    assert "#pragma unroll" not in device_code(knl)
