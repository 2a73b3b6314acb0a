"""The isl glue: domain parsing and the forest, bounds, proofs, exact piecewise extents."""

from __future__ import annotations

import itertools

import islpy as isl
import pytest
from pymbolic import evaluate, parse

from translator.diagnostics import DomainError
from translator.ir import isl_glue as g


def test_parse_domain_finds_parameters() -> None:
    d = g.parse_domain("{[i,j]: 0<=i<n and 0<=j<=i}")
    assert g.inames_of(d) == ("i", "j") and g.params_of(d) == ("n",)


@pytest.mark.parametrize("text,fragment", [
    ("{[i]: i=1 or i=5}", "not convex"),
    ("{[i]: 0<=i<n", "malformed domain"),
])
def test_parse_domain_errors(text: str, fragment: str) -> None:
    with pytest.raises(DomainError, match=fragment):
        g.parse_domain(text)


def test_forest_parents_and_combined_domain() -> None:
    forest = [g.parse_domain("{[l]: 0<=l<=2}"), g.parse_domain("{[i]: s<=i<e}"),
              g.parse_domain("{[k]: 0<=k<l}")]
    assert g.domain_parents(forest) == (None, None, 0)
    g.check_forest(forest)
    both = g.combined_domain(forest, ["k"])
    assert set(g.inames_of(both)) == {"l", "k"}
    with pytest.raises(DomainError, match="unknown iname"):
        g.combined_domain(forest, ["q"])


def test_iname_defined_twice_is_an_ill_formed_forest() -> None:
    with pytest.raises(DomainError, match="defined by more than one domain"):
        g.check_forest([g.parse_domain("{[i]: 0<=i<n}"), g.parse_domain("{[i]: 0<=i<m}")])


def test_bounds_and_extents() -> None:
    d = g.parse_domain("{[i,j]: 0<=i<n and 0<=j<=i}")
    lo, hi = g.iname_bounds(d, "j", outer=["i"])
    assert g.expr_from_pwaff(lo) == 0 and str(g.expr_from_pwaff(hi)) == "i"
    assert g.constant_extent(g.parse_domain("{[i]: 0<=i<16}"), "i") == 16
    assert g.constant_extent_bound(g.parse_domain("{[i,j]: 0<=i<n and i<=j<i+4}"), "j") == 4
    assert g.constant_extent_bound(d, "j") is None


def test_nonnegativity_proofs_use_assumptions() -> None:
    d = g.parse_domain("{[i]: 0<=i<n}")
    assert g.is_nonnegative(parse("n - 1 - i"), d)
    assert not g.is_nonnegative(parse("m - i"), d)
    assert g.is_nonnegative(parse("m - i"), d, isl.BasicSet("[m, n] -> { : m >= n }"))


def test_floor_division_round_trips_through_isl() -> None:
    d = g.parse_domain("{[i]: 0<=i<n}")
    aff = g.aff_from_expr(d.get_space(), parse("(i + 3) // 4"))
    (_, piece), = aff.get_pieces()
    back = g.expr_from_aff(piece)
    for i in range(-9, 9):
        assert evaluate(back, {"i": i}) == (i + 3) // 4


def test_extent_with_min_bound_is_exact_not_an_overestimate() -> None:
    # do i = 1, min(n, m): the largest index is min(n, m) - 1 (0-based), never max(n, m) - 1
    d = g.make_loop_domain("i", 0, parse("min(n, m) - 1"))
    top = g.max_over_domain(d, parse("i"))
    for n, m in itertools.product(range(1, 6), repeat=2):
        assert evaluate(top, {"n": n, "m": m}) == min(n, m) - 1, (n, m, top)


def test_conflict_search_gives_a_witness_or_proves_none() -> None:
    dom = [g.parse_domain("{[i]: 0<=i<n}")]
    first = g.instance_set(dom, ["i"])
    second = g.instance_set(dom, ["i"], rename={"i": "i2"})
    hit = g.find_conflict(first, second, [(parse("i"), parse("i2 - 1"))], [("i", "i2")])
    assert hit is not None and hit["i"] == hit["i2"] - 1
    assert g.find_conflict(first, second, [(parse("2*i"), parse("2*i2 + 1"))],
                           [("i", "i2")]) is None
