"""fix_parameters and assume."""

from __future__ import annotations

import islpy as isl
import numpy as np
import pytest
from pymbolic import parse

import transforms
from tests.unit.transforms.builders import assign, build
from translator.diagnostics import TransformError
from translator.ir import isl_glue
from translator.ir.data import ArrayArg, FixedStrideTag, TemporaryVariable, ValueArg
from translator.ir.kernel import SubstitutionRule
from translator.ir.util import FrozenDict


def param_kernel():
    n, m = parse("n"), parse("m")
    return build(
        "{[i, j]: 0<=i<n and 0<=j<m}",
        [assign("s0", "out[i, j]", "alpha*a[i, j] + n", ["i", "j"],
                predicates=frozenset({parse("i < n - 1")}))],
        args=[ArrayArg(name="out", shape=(n, m)),
              ArrayArg(name="a", shape=(n, m + 1),
                       dim_tags=(FixedStrideTag(stride=m + 1), FixedStrideTag(stride=1)),
                       offset=2 * n),
              ValueArg(name="alpha"), ValueArg(name="n"), ValueArg(name="m")],
        rules=[SubstitutionRule(name="f", arguments=("x",), expression=parse("x * n"))],
        temporaries=FrozenDict({"t": TemporaryVariable(name="t", shape=(parse("(n+1)//2"),))}),
        assumptions=isl_glue.parse_domain("{[i]: 0<=i<n and n >= 2}").params(),
    )


def test_fix_parameters_everywhere():
    out = transforms.fix_parameters(param_kernel(), n=8)
    assert out.domains == (isl_glue.parse_domain("{[i, j]: 0<=i<8 and 0<=j<m}"),)
    assert out.arg_names == ("out", "a", "alpha", "m")
    assert out.arg("out").shape == (8, parse("m"))
    assert out.arg("a").offset == 16
    assert out.temporaries["t"].shape == (4,)
    s = out.statement("s0")
    assert s.expression == parse("alpha*a[i, j] + 8")
    assert s.predicates == {parse("i < 8 - 1")}
    assert out.substitutions["f"].expression == parse("x * 8")
    assert out.assumptions.is_universe()


def test_fix_several_and_value_args():
    out = transforms.fix_parameters(param_kernel(), m=3, alpha=np.float32(0.5))
    assert out.arg_names == ("out", "a", "n")
    assert out.arg("a").dim_tags == (FixedStrideTag(stride=4), FixedStrideTag(stride=1))
    assert out.statement("s0").expression == parse("a[i, j] + n").__class__(
        (np.float32(0.5) * parse("a[i, j]"), parse("n")))
    assert type(out.statement("s0").expression.children[0].children[0]) is np.float32


def test_fix_parameter_only_in_domain():
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "1", ["i"])],
                args=[ArrayArg(name="out", shape=(16,))])
    out = transforms.fix_parameters(knl, n=16)
    assert out.domains == (isl_glue.parse_domain("{[i]: 0<=i<16}"),)


@pytest.mark.parametrize("kwargs, message", [
    ({}, "fix_parameters: no parameters given"),
    ({"q": 1}, "fix_parameters: 'q' is neither a domain parameter nor a value argument of "
               "kernel 'knl'"),
    ({"nn": 1}, "(did you mean 'n'?)"),
    ({"a": 1}, "fix_parameters: 'a' is an array argument"),
    ({"i": 1}, "fix_parameters: 'i' is an iname or a temporary"),
    ({"n": 2.5}, "fix_parameters: 'n' bounds a loop domain; its value must be an integer"),
    ({"alpha": "x"}, "fix_parameters: value for 'alpha' must be a number, got 'x'"),
    ({"n": True}, "value for 'n' must be a number"),
])
def test_fix_parameters_errors(kwargs, message):
    with pytest.raises(TransformError) as err:
        transforms.fix_parameters(param_kernel(), **kwargs)
    assert message in err.value.message


# ---------------------------------------------------------------------------------------------
# assume


def test_assume_string_and_merge():
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "1", ["i"])])
    out = transforms.assume(knl, "n mod 4 = 0")
    assert out.assumptions == isl_glue.parse_param_set("n mod 4 = 0", ["n"])
    out2 = transforms.assume(out, "n >= 8")
    assert out2.assumptions == isl_glue.parse_param_set("n mod 4 = 0 and n >= 8", ["n"])
    assert transforms.assume(out2, "n >= 4") is out2      # already implied


def test_assume_value_arg_and_isl_set():
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "k", ["i"])],
                args=[ArrayArg(name="out"), ValueArg(name="n"), ValueArg(name="k")])
    out = transforms.assume(knl, "k > 0 and n > 0")
    assert out.assumptions == isl_glue.parse_param_set("k > 0 and n > 0", ["k", "n"])
    out = transforms.assume(knl, isl.BasicSet("[n] -> { : n >= 3 }"))
    assert out.assumptions == isl_glue.parse_param_set("n >= 3", ["n"])


@pytest.mark.parametrize("text, message", [
    ("q > 1", "assume: unknown name(s) q in 'q > 1' (known parameters: n)"),
    ("n > 1 or n < 0", "assume: condition 'n > 1 or n < 0' would make a domain non-convex"),
    ("n > > 1", "assume: malformed condition 'n > > 1': syntax error"),
    (5, "assume: assumptions must be a string in ISL syntax, got 5"),
])
def test_assume_errors(text, message):
    knl = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "1", ["i"])])
    with pytest.raises(TransformError) as err:
        transforms.assume(knl, text)
    assert err.value.message == message


def test_assume_contradiction():
    knl = transforms.assume(build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "1", ["i"])]),
                            "n < 4")
    with pytest.raises(TransformError, match="assume: 'n > 10' contradicts the assumptions"):
        transforms.assume(knl, "n > 10")
