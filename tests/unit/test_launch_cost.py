"""The launch estimate of host programs (`translator.launch_cost`, issue 21 item 9)."""

from __future__ import annotations

from translator.ir.isl_glue import nominal_points, parse_domain
from translator.launch_cost import (LAUNCH_COST, STORM_LAUNCHES, fusion_pays, shape_mismatch,
                                    storm_message)

DOMAINS = [parse_domain("{[k]: 1 <= k <= ny}"), parse_domain("{[j]: 1 <= j <= nx}"),
           parse_domain("{[kt]: k <= kt <= k + 1}"), parse_domain("{[jt]: j <= jt <= j + 1}")]


def test_points_of_a_rectangular_nest_with_parameters_at_the_nominal_size() -> None:
    assert nominal_points(DOMAINS, ["k", "j", "kt", "jt"], 1000) == 1000 * 1000 * 4
    assert nominal_points(DOMAINS, ["k"], 1000) == 1000
    assert nominal_points(DOMAINS, [], 1000) == 1


def test_inner_loops_count_their_own_range_not_the_outer_loops() -> None:
    """kt runs over 2 values for each k (not over the 1001 values of all k together)."""
    assert nominal_points(DOMAINS, ["kt", "jt"], 1000) == 4


def test_triangular_and_empty_nests() -> None:
    tri = [parse_domain("{[i]: 0 <= i < n}"), parse_domain("{[j]: i <= j < n}")]
    assert nominal_points(tri, ["i", "j"], 100) == 100 * 100       # at most twice too many
    empty = [parse_domain("{[i]: n <= i < 5}")]
    assert nominal_points(empty, ["i"], 1000) == 0


def test_storm_needs_many_launches_that_cost_more_than_their_work() -> None:
    assert storm_message(STORM_LAUNCHES, 0.0) is None
    assert storm_message(2 * STORM_LAUNCHES, 0.0).startswith(
        f"about {2 * STORM_LAUNCHES} kernel launches per call")
    big = 2 * STORM_LAUNCHES * LAUNCH_COST + 1.0
    assert storm_message(2 * STORM_LAUNCHES, big) is None


def test_nests_in_work_groups_not_their_own_are_slower_by_the_ratio_of_sizes() -> None:
    """bicg at the nominal size: one nest's own groups are 32 work items, the other's 123;
    fused, both run on groups of 61 (smaller tiles).  fdtd-2d's boundary row (groups of 256)
    and its 32 x 8 stencil nest share groups of one size: the row's idle groups cost nothing."""
    own, other, fused = ((32,), (32,)), ((123,), (32,)), ((61,), (32,))
    assert shape_mismatch(own, own) == 1.0
    assert shape_mismatch(own, fused) == shape_mismatch(fused, own) == 61 / 32
    assert shape_mismatch(((256,), (4,)), ((32, 8), (4, 125))) == 1.0   # more groups: free
    assert shape_mismatch(((32,), (4,)), ((256, 8), (4, 125))) == 64.0
    work = 1000 * 1000
    assert not fusion_pays([work, work], [own, other], fused)
    assert fusion_pays([work, work], [own, own], own)          # one mapping: one launch
    assert fusion_pays([256, 256], [own, other], fused)        # tiny nests: one launch
