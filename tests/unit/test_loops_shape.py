"""The loops shape of issue 24 (bench/RESULTS.md, "The loops shape (h59, issue 24)"): a region of
many one-statement loops, each reading what the loop before wrote.  The splitter checks each
loop as a candidate kernel and the automatic mapper probes the whole region first; the work
per loop must not grow with the number of loops around it."""

from __future__ import annotations

import pytest
from pymbolic import parse

import transforms
from tests.unit.transforms.builders import assign, build
from transforms import common, split
from translator.ir.expr import Reduction
from translator.ir.printer import print_kernel

LOOPS = 40


def _many_loops(reduction: bool = False):
    """`LOOPS` loops ``t{k}[i{k}] = t{k-1}[i{k}]*0.5 + k``; with `reduction`, a last statement
    outside every loop sums over the first loop's iname."""
    domains = [f"{{[i{k}]: 0<=i{k}<n}}" for k in range(LOOPS)]
    stmts = [assign(f"s{k}", f"t{k}[i{k}]", f"{'a' if k == 0 else f't{k - 1}'}[i{k}]*0.5 + {k}.0",
                    [f"i{k}"]) for k in range(LOOPS)]
    if reduction:
        stmts.append(assign("r", "out[0]", Reduction("sum", ("i0",), parse("t0[i0]"))))
    return build(domains, stmts)


def _rewrites(monkeypatch) -> list[str]:
    """The ids of the statements the split's rewriter is applied to, as it goes."""
    seen: list[str] = []
    real = common.map_statement_expressions

    def counted(stmt, fn):
        seen.append(stmt.id)
        return real(stmt, fn)
    monkeypatch.setattr(common, "map_statement_expressions", counted)
    return seen


@pytest.mark.parametrize("reduction", [False, True])
@pytest.mark.parametrize("iname", ["i0", "i7"])
def test_splitting_one_loop_rewrites_only_the_statements_using_it(monkeypatch, reduction,
                                                                  iname):
    kernel = _many_loops(reduction)
    seen = _rewrites(monkeypatch)
    fast = transforms.split_iname(kernel, iname, 256, outer_tag="g.0", inner_tag="l.0")
    users = {f"s{iname[1:]}"} | ({"r"} if reduction and iname == "i0" else set())
    assert set(seen) == users   # before: every statement of the region, 40 or 41
    # the same kernel as the split that rewrites every statement
    monkeypatch.setattr(split, "_users", lambda kernel, iname, ids: None)
    full = transforms.split_iname(kernel, iname, 256, outer_tag="g.0", inner_tag="l.0")
    assert len(seen) > LOOPS
    assert fast == full and print_kernel(fast) == print_kernel(full)
    assert fast.statement(f"s{iname[1:]}").within_inames == {f"{iname}_outer",
                                                              f"{iname}_inner"}
    if reduction and iname == "i0":
        assert fast.statement("r").expression.inames == ("i0_outer", "i0_inner")


def test_a_split_of_a_loop_only_a_reduction_uses_drops_the_old_iname():
    """The old iname leaves the domains when no statement uses it after the split, here one
    used only by a reduction outside every loop; kept where a statement left out by `within`
    still runs in it."""
    kernel = build(["{[i0]: 0<=i0<n}", "{[j]: 0<=j<n}"],
                   [assign("r", "out[0]", Reduction("sum", ("i0",), parse("a[i0]"))),
                    assign("c", "b[j]", "a[j]", ["j"])])
    out = transforms.split_iname(kernel, "i0", 4)
    assert "i0" not in out.all_inames and {"i0_outer", "i0_inner"} <= out.all_inames
    two = build("{[i]: 0<=i<n}", [assign("s", "b[i]", "a[i]", ["i"]),
                                  assign("u", "c[i]", "a[i]", ["i"])])
    kept = transforms.split_iname(two, "i", 4, within="id:s")
    assert "i" in kept.all_inames and kept.statement("u").within_inames == {"i"}
