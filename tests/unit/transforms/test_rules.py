"""Substitution rules: extract_subst, assignment_to_subst, expand_subst, find_rules_matching,
find_one_rule_matching."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from pymbolic import parse

import transforms
from tests.unit.transforms.builders import arr, check, knl, text
from translator.diagnostics import TransformError
from translator.ir.kernel import SubstitutionRule


def squares():
    return knl("{[i]: 0<=i<n}", "out[i] = a[i]**2 + b[i]**2 {id=s0}\nc[i] = 2*a[i] {id=s1}",
               arr("a", "n"), arr("b", "n"))


def temp_kernel():
    return knl("{[i]: 0<=i<8}", """
        <> t[i] = 2*a[i]       {id=d}
        out[i] = t[i] + 1      {id=u, dep=d}
        out2[i] = t[i]*t[i]    {id=v, dep=d}
        """, arr("a", "8"))


# ---------------------------------------------------------------------------------------------
# extract_subst


def test_extract_subst_structure():
    k = squares()
    out = transforms.extract_subst(k, "sq", "x**2", parameters="x")
    assert out.substitutions["sq"].arguments == ("x",)
    assert out.substitutions["sq"].expression == parse("x**2")
    assert "out[i] = sq(a[i]) + sq(b[i])" in text(out)
    assert out.statement("s1") is k.statement("s1")


def test_extract_subst_commutes_and_respects_within():
    k = squares()
    out = transforms.extract_subst(k, "dbl", "x*2", parameters=["x"], within="id:s1")
    assert "c[i] = dbl(a[i])" in text(out)
    assert out.statement("s0") is k.statement("s0")


def test_extract_subst_wildcards_bind_once():
    k = knl("{[i, j]: 0<=i<n and 0<=j<3}", "out[i, j] = a[i, 0]*b[j] + a[i, 1]*b[j]",
            arr("a", "n, 3"), arr("b", "3"))
    out = transforms.extract_subst(k, "f", "a[i, *]*b[j]")
    assert out.substitutions["f"].expression == parse("a[i, 0]*b[j]")
    assert "f + a[i, 1]*b[j]" in text(out)


def test_extract_subst_runs_once_expanded(ctx):
    k = squares()
    out = transforms.extract_subst(k, "sq", "x**2", parameters="x")
    check(k, transforms.expand_subst(out), ctx, n=7)


@pytest.mark.parametrize("args, kwargs, message", [
    (("a", "x**2"), {"parameters": "x"}, "'a' is already used in kernel"),
    (("sq", "x**2"), {"parameters": "y"}, "parameter 'y' does not occur in the template"),
    (("sq", "x**3"), {"parameters": "x"}, "no expression in the selected statements matches"),
    (("sq", "x**"), {"parameters": "x"}, "bad template 'x\\*\\*'"),
    (("s q", "x"), {"parameters": "x"}, "the rule name must be an identifier"),
])
def test_extract_subst_errors(args, kwargs, message):
    with pytest.raises(TransformError, match=message):
        transforms.extract_subst(squares(), *args, **kwargs)


def test_extract_subst_as_pragma():
    out = transforms.apply_call(squares(), "extract_subst", ("sq", "x**2"), {"parameters": "x"})
    assert "sq" in out.substitutions


# ---------------------------------------------------------------------------------------------
# assignment_to_subst


def test_assignment_to_subst_structure():
    k = temp_kernel()
    out = transforms.assignment_to_subst(k, "t")
    assert out.substitutions["t"] == SubstitutionRule(name="t", arguments=("i",),
                                                      expression=parse("2*a[i]"))
    assert "t" not in out.temporaries
    assert [s.id for s in out.statements] == ["u", "v"]
    assert "out[i] = t(i) + 1" in text(out) and "out2[i] = t(i)*t(i)" in text(out)
    assert out.statement("u").depends_on == frozenset()


def test_assignment_to_subst_runs(ctx):
    k = temp_kernel()
    check(k, transforms.expand_subst(transforms.assignment_to_subst(k, "t")), ctx)


def test_assignment_to_subst_within_keeps_the_definition(ctx):
    k = temp_kernel()
    out = transforms.assignment_to_subst(k, "t", within="id:u")
    assert "t_subst" in out.substitutions and "t" in out.temporaries
    assert "out[i] = t_subst(i) + 1" in text(out) and "out2[i] = t[i]*t[i]" in text(out)
    check(k, transforms.expand_subst(out), ctx)


def test_assignment_to_subst_scalar_and_extra_arguments():
    k = knl("{[i]: 0<=i<n}", "<> s = 3*a[i] {id=d}\nout[i] = s + 1 {id=u, dep=d}",
            arr("a", "n"))
    out = transforms.assignment_to_subst(k, "s")
    assert "out[i] = s + 1" in text(out) and out.substitutions["s"].arguments == ()
    extra = transforms.assignment_to_subst(k, "s", extra_arguments="i")
    assert "out[i] = s(i) + 1" in text(extra)
    assert extra.substitutions["s"].arguments == ("i",)


def test_assignment_to_subst_of_an_argument():
    k = knl("{[i]: 0<=i<n}", "b[i] = 2*a[i] {id=d}\nout[i] = b[i] {id=u, dep=d}",
            arr("a", "n"), arr("b", "n"))
    assert "b" not in transforms.assignment_to_subst(k, "b").arg_names
    kept = transforms.assignment_to_subst(k, "b", force_retain_argument=True)
    assert "b" in kept.arg_names and "b_subst" in kept.substitutions


def two_definitions():
    return knl("{[i]: 0<=i<n}",
               """<> a = inp[i]  {id=d1, inames=i}
                  out[i] = 5*a  {id=u1, dep=d1}
                  a = 3*inp[n - 1]  {id=d2, dep=u1, inames=i}
                  out2[i] = 6*a  {id=u2, dep=d2}""", arr("inp", "n"))


def test_assignment_to_subst_with_two_definitions(ctx):
    k = two_definitions()
    both = transforms.assignment_to_subst(k, "a")
    assert set(both.substitutions) == {"a", "a_0"} and "a" not in both.temporaries
    assert "out[i] = 5*a" in text(both) and "out2[i] = 6*a_0" in text(both)
    check(k, transforms.expand_subst(both), ctx, n=9)
    one = transforms.assignment_to_subst(k, "a", within="id:u2")
    assert set(one.substitutions) == {"a_subst"} and "a" in one.temporaries
    assert [s.id for s in one.statements] == ["d1", "u1", "u2"]
    check(k, transforms.expand_subst(one), ctx, n=9)


@pytest.mark.parametrize("instructions, name, message", [
    ("<> t[i] = a[i] {id=d}\nout[i] = t[i] {id=u}", "q", "unknown variable 'q'"),
    ("out[i] = a[i] {id=u}", "out", "no statement \\(matched by within\\) reads 'out'"),
    ("<> t[i] = a[i] {id=d0}\nt[i] = 2*t[i] {id=d1, dep=d0}\nout[i] = t[i] {id=u, dep=d1}",
     "t", "statement 'd1' reads 't' while defining it"),
    ("<> t[i] = a[i] {id=d0}\nout[i] = t[i] {id=u, dep=d0}\nt[i] = 2*a[i] {id=d1, dep=u}\n"
     "out[i] = out[i] + t[i] {id=u2}", "t",
     "'t' is assigned by several statements \\(d0, d1\\) and statement 'u2' does not read"),
    ("<> t[7 - i] = a[i] {id=d}\nout[i] = t[i] {id=u}", "t",
     "the subscripts of t\\[7 - i\\] must be distinct inames, each plus a constant"),
    ("<> t[i] = a[i] {id=d}\nout[i] = t[[i]] {id=u}", "t", "a linear subscript of 't'"),
])
def test_assignment_to_subst_errors(instructions, name, message):
    k = knl("{[i]: 0<=i<8}", instructions, arr("a", "8"))
    with pytest.raises(TransformError, match=message):
        transforms.assignment_to_subst(k, name)


def test_assignment_to_subst_error_free_iname():
    k = knl("{[i, j]: 0<=i,j<4}", "<> s = a[i] {id=d, inames=i}\nout[j] = s {id=u, dep=d, inames=j}",
            arr("a", "4"), arr("out", "4"))
    with pytest.raises(TransformError, match="uses iname 'i', but statement 'u' is not inside"):
        transforms.assignment_to_subst(k, "s")


# ---------------------------------------------------------------------------------------------
# expand_subst and the queries


def rule_kernel():
    return knl("{[i]: 0<=i<n}", """
        f(x) := 2*x
        g(x, y) := f(x) + y
        out[i] = g(a[i], 1) {id=s0}
        out2[i] = f(a[i]) {id=s1}
        """, arr("a", "n"))


def test_expand_subst_structure_and_runs(ctx):
    k = rule_kernel()
    out = transforms.expand_subst(k)
    assert "out[i] = 2*a[i] + 1" in text(out) and "out2[i] = 2*a[i]" in text(out)
    assert not out.substitutions
    assert transforms.expand_subst(out) is out
    plain = knl("{[i]: 0<=i<n}", "out[i] = 2*a[i] + 1\nout2[i] = 2*a[i]", arr("a", "n"))
    check(plain, out, ctx, n=6)


def test_expand_subst_within_keeps_used_rules():
    out = transforms.expand_subst(rule_kernel(), within="id:s0")
    assert "out[i] = 2*a[i] + 1" in text(out) and "out2[i] = f(a[i])" in text(out)
    assert list(out.substitutions) == ["f"]


def test_expand_subst_error_recursive_rule():
    k = rule_kernel()
    loop = SubstitutionRule(name="f", arguments=("x",), expression=parse("g(x, 0)"))
    bad = replace(k, substitutions=k.substitutions.set("f", loop))
    with pytest.raises(TransformError, match="expand_subst: substitution rule 'g' is "
                                             "recursive \\(g -> f -> g\\)"):
        transforms.expand_subst(bad)


def test_find_rules():
    k = rule_kernel()
    assert transforms.find_rules_matching(k, "*") == ["f", "g"]
    assert transforms.find_one_rule_matching(k, "g*") == "g"
    with pytest.raises(TransformError, match=r"2 rules \(f, g\) match '\?', expected exactly"):
        transforms.find_one_rule_matching(k, "?")
    with pytest.raises(TransformError, match="no rule match 'h'"):
        transforms.find_one_rule_matching(k, "h")
    assert np.array_equal(transforms.find_rules_matching(k, "z*"), [])


def test_assignment_to_subst_keeps_the_conversion_of_the_store(ctx):
    k = knl("{[i]: 0<=i<8}", "<float32> t[i] = a[i]/3 {id=d}\nout[i] = t[i]*3 {id=u, dep=d}",
            arr("a", "8", np.float64), arr("out", "8", np.float64))
    out = transforms.assignment_to_subst(k, "t")
    assert str(out.substitutions["t"].expression).startswith("cast(float32, ")
    check(k, transforms.expand_subst(out), ctx)
    same = transforms.assignment_to_subst(temp_kernel(), "t")
    assert same.substitutions["t"].expression == parse("2*a[i]")
