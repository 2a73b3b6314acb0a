"""Tests of the helpers the transforms share (`transforms.common`: the rewriter, rule
rewriting, used inames; `transforms.arrays`: rewrite_subscripts, find_arrays) and of the
builders themselves."""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p
import pytest
from pymbolic import parse

import translator
from tests.unit.transforms.builders import (arr, assign, build, check, evaluate_index, knl,
                                            points, text)
from translator.diagnostics import TransformError
from translator.ir.kernel import SubstitutionRule
from translator.ir.expr import Reduction
from transforms.arrays import find_arrays, rewrite_subscripts, with_variables
from transforms.common import Rewriter, rewrite_statements, used_inames

def test_rewrite_subscripts_appends_and_keeps_other_arrays():
    k = knl("{[i]: 0<=i<n}", "out[i] = a[i] + b[i]", arr("a", "n"), arr("b", "n"))
    out = rewrite_subscripts(k, lambda name, idx: (*idx, 0) if name == "a" else None)
    assert "a[i, 0] + b[i]" in text(out)
    assert rewrite_subscripts(k, lambda name, idx: None) is k


def test_rewrite_subscripts_leaves_linear_subscripts_alone():
    k = knl("{[i]: 0<=i<n}", "out[i] = a[[i]]", arr("a", "n"))
    out = rewrite_subscripts(k, lambda name, idx: (*idx, 0) if name == "a" else None)
    assert "a[[i]]" in text(out)


def test_find_arrays_errors():
    k = knl("{[i]: 0<=i<n}", "out[i] = a[i]", arr("a", "n"))
    with pytest.raises(TransformError, match=r"unknown array 'aa' \(did you mean 'a'\?\)"):
        find_arrays(k, "aa", "t")
    with pytest.raises(TransformError, match="'n' is not an array with a known shape"):
        find_arrays(k, "n", "t")
    assert with_variables(k, find_arrays(k, "a, out", "t")) is k


def _roundtrip_cases():
    """Kernels produced by the library transforms, each of which must print and read back."""
    import transforms
    from translator.ir.parse import TemporaryVariable
    base = knl("{[i, j]: 0<=i<n and 0<=j<m}", """
        <float32> s = 2*a[i, j]       {id=w}
        out[i, j] = s + sum(j, a[i, j]) + sum(j, a[i, j])   {id=r, dep=w}
        """, arr("a", "n, m"))
    temps = knl("{[i, j]: 0<=i<n and 0<=j<4}", "t[j] = a[i, j] {id=w}\nb[i, j] = t[3 - j] {id=r}",
                arr("a", "n, 4"), TemporaryVariable("t", np.float32, shape=(4,)))
    yield "batched", transforms.to_batched(base, "nb", "a, out", sequential=True)
    yield "barrier", transforms.add_barrier(base, "w", "r", synchronization_kind="local")
    yield "nosync", transforms.add_nosync(base, "any", "w", "r", bidirectional=True)
    yield "priority", transforms.set_instruction_priority(base, "r", 3)
    yield "padded", transforms.add_padding(base, "a", 0, 16)
    yield "split_axis", transforms.split_array_axis(base, "a", 1, 3)
    yield "unique", transforms.make_reduction_inames_unique(base)
    yield "mapped", transforms.map_domain(base, "{[i] -> [k]: k = i + 2}")
    yield "privatized", transforms.privatize_temporaries_with_inames(temps, "j")
    yield "aliased", transforms.alias_temporaries(temps, "t")
    yield "rule", transforms.assignment_to_subst(base, "s")


@pytest.mark.parametrize("label", [label for label, _ in _roundtrip_cases()])
def test_library_results_print_and_read_back(label):
    kernel = dict(_roundtrip_cases())[label]
    assert translator.parse_kernel(translator.print_kernel(kernel)) == kernel


def test_library_transforms_as_pragmas(ctx):
    """Directive text -> the same transforms, with errors at the directive's position."""
    from frontends.pragmas import parse_directive
    from translator.diagnostics import SourceSpan
    from translator.pipeline import apply_transform_calls
    k = knl("{[i, j]: 0<=i,j<n}", """
        mat1[i, j] = mat1[i, j] + 1  {inames=i:j, id=i1}
        mat2[j] = mat2[j] + 1        {inames=j, id=i2}
        mat3[i] = mat3[i] + 1        {inames=i, id=i3}
        """, arr("mat1", "n, n"), arr("mat2", "n"), arr("mat3", "n"))
    lines = ['duplicate_inames("i", "id:i3", tags={"i": "g.0"})',
             'set_instruction_priority("id:i2", 3)',
             'tag_instructions("hot", within="iname:j")',
             'to_batched(2, ["mat2"], sequential=True)']
    calls = [parse_directive(t, SourceSpan(file="s.c", line=n + 1)) for n, t in enumerate(lines)]
    out = apply_transform_calls(k, calls)
    assert out.statement("i2").priority == 3 and out.statement("i1").tags == {"hot"}
    assert out.arg("mat2").shape[0] == 2 and "i_0" in out.all_inames
    bad = parse_directive('set_argument_order("mat1")', SourceSpan(file="s.c", line=7, col=3))
    with pytest.raises(TransformError, match="omits argument") as err:
        apply_transform_calls(k, [bad])
    assert str(err.value.span) == "s.c:7:3"
    check(k, apply_transform_calls(k, calls[:3]), ctx, n=4)

def test_rewriter_keeps_identity_when_nothing_changes():
    e = parse("a[i, j] + 2*b[k]")
    assert Rewriter({"x": p.Variable("y")})(e) is e


def test_rewriter_substitutes_and_renames_reductions():
    red = Reduction("sum", ("k",), parse("a[i, k]"))
    rw = Rewriter({"k": p.Variable("kk")}, reduction_inames=lambda r: ("kk",))
    out = rw(red + 1)
    assert out == Reduction("sum", ("kk",), parse("a[i, kk]")) + 1


def test_rewriter_respects_bound_rule_arguments():
    rw = Rewriter({"i": p.Variable("q")}).with_bound({"i"})
    e = parse("a[i]")
    assert rw(e) is e


def test_used_inames_counts_reductions_in_rules():
    rule = SubstitutionRule(name="f", arguments=("x",),
                            expression=Reduction("sum", ("k",), parse("a[x, k]")))
    knl = build("{[i, k]: 0<=i<n and 0<=k<m}", [assign("s", "out[i]", "f(i)", ["i"])],
                rules=[rule])
    assert used_inames(knl) == {"i", "k"}


def test_rule_used_inside_and_outside_within_is_copied():
    rule = SubstitutionRule(name="f", arguments=("x",), expression=parse("a[x] * i"))
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "f(i)", ["i"]),
                                  assign("s1", "out2[i]", "f(i)", ["i"])], rules=[rule])
    rw = Rewriter({"i": p.Variable("z")})
    out = rewrite_statements(knl, rw, lambda s: s.id == "s0")
    assert set(out.substitutions) == {"f", "f_0"}
    assert out.substitutions["f"] == rule
    assert out.substitutions["f_0"].expression == parse("a[x] * z")
    assert out.statement("s0").expression == parse("f_0(z)")
    assert out.statement("s1") is knl.statement("s1")


def test_rule_used_only_inside_is_rewritten_in_place():
    rule = SubstitutionRule(name="f", arguments=("x",), expression=parse("a[x] * i"))
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "f(i)", ["i"])], rules=[rule])
    out = rewrite_statements(knl, Rewriter({"i": p.Variable("z")}), lambda s: True)
    assert set(out.substitutions) == {"f"}
    assert out.substitutions["f"].expression == parse("a[x] * z")


def test_points_helper():
    knl = build("{[i, j]: 0<=i<3 and 0<=j<i}", [assign("s", "out[i, j]", "1", ["i", "j"])])
    assert points(knl, ["i", "j"]) == {(1, 0), (2, 0), (2, 1)}
    assert evaluate_index(parse("i + 2*min(j, 3)"), i=1, j=5) == 7
