"""set_options, add_dtypes, infer_unknown_types, add_and_infer_dtypes."""

from __future__ import annotations

import numpy as np
import pytest

import transforms
from tests.unit.transforms.builders import assign, build
from translator.diagnostics import TransformError
from translator.ir.data import ArrayArg, TemporaryVariable, ValueArg
from translator.ir.kernel import Options
from translator.ir.util import FrozenDict


def knl():
    return build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "2*a[i]", ["i"])])


# ---------------------------------------------------------------------------------------------
# set_options


def test_set_options_keywords_string_dict_options():
    k = knl()
    out = transforms.set_options(k, emit_line_directives=False, trust_mappings=True)
    assert not out.options.emit_line_directives and out.options.trust_mappings
    out = transforms.set_options(k, "trust_mappings, preamble='#define X 1, 2', "
                                    "source_language=fortran")
    assert out.options.trust_mappings and out.options.preamble == "#define X 1, 2"
    assert out.options.source_language == "fortran"
    out = transforms.set_options(k, {"emit_line_directives": "false"})
    assert not out.options.emit_line_directives
    opts = Options(source_language="c")
    assert transforms.set_options(k, opts).options is opts
    assert transforms.set_options(k, emit_line_directives=True) is k


def test_set_options_extra_merges():
    k = transforms.set_options(knl(), extra={"a": 1})
    k = transforms.set_options(k, extra={"b": 2})
    assert k.options.extra == FrozenDict({"a": 1, "b": 2})


@pytest.mark.parametrize("args, kwargs, message", [
    ((), {"trust_mapping": True}, "set_options: unknown option 'trust_mapping' (did you mean "
                                  "'trust_mappings'?); options for plugins go in extra={...}"),
    ((), {"preamble": 3}, "set_options: option 'preamble' takes a str, got 3"),
    ((), {"trust_mappings": "maybe"}, "option 'trust_mappings' takes a bool, got 'maybe'"),
    ((), {"source_language": "cobol"}, "source_language must be one of kernel, fortran, c"),
    ((), {"extra": 3}, "set_options: extra must be a dict, got 3"),
    (("a", "b"), {}, "set_options: at most one positional argument"),
    (("x=1",), {"y": 2}, "pass either one positional argument or keywords"),
    (("=1",), {}, "set_options: malformed option '=1'"),
    ((5,), {}, "set_options: expected a string, dict or Options, got 5"),
])
def test_set_options_errors(args, kwargs, message):
    with pytest.raises(TransformError) as err:
        transforms.set_options(knl(), *args, **kwargs)
    assert message in err.value.message


# ---------------------------------------------------------------------------------------------
# add_dtypes


def test_add_dtypes_forms():
    k = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "2*a[i]", ["i"])],
              temporaries=FrozenDict({"t": TemporaryVariable(name="t")}))
    out = transforms.add_dtypes(k, {"out, a": np.float32, "t": "int64", "n": int})
    assert out.arg("out").dtype == np.float32 and out.arg("a").dtype == np.float32
    assert out.temporaries["t"].dtype == np.int64 and out.arg("n").dtype == np.int_
    out2 = transforms.add_dtypes(k, "out, a: float64; n: int32")
    assert out2.arg("a").dtype == np.float64 and out2.arg("n").dtype == np.int32
    assert transforms.add_dtypes(out, {"a": "float32"}) is out
    assert out.arg("out") is not k.arg("out") and k.arg("out").dtype is None


@pytest.mark.parametrize("spec, message", [
    ({"zz": "float32"}, "add_dtypes: unknown variable(s) zz (not an argument or temporary)"),
    ({"aa": "float32"}, "(did you mean 'a'?)"),
    ({"a": "floaty"}, "add_dtypes: 'floaty' (for 'a') is not a dtype"),
    ({"a": None}, "add_dtypes: no dtype given for 'a'"),
    ({"a": "U4"}, "add_dtypes: dtype <U4 (for 'a') is not a numeric type"),
    ("a float32", "add_dtypes: 'a float32' has no ':'"),
    (7, "add_dtypes: expected a dict of name -> dtype, got 7"),
])
def test_add_dtypes_errors(spec, message):
    with pytest.raises(TransformError) as err:
        transforms.add_dtypes(knl(), spec)
    assert message in err.value.message


def test_add_dtypes_conflict():
    k = transforms.add_dtypes(knl(), {"a": "float32"})
    with pytest.raises(TransformError, match="add_dtypes: 'a' already has dtype float32; "
                                             "cannot change it to float64"):
        transforms.add_dtypes(k, {"a": "float64"})


# ---------------------------------------------------------------------------------------------
# inference (translator.ir.types)


def test_add_and_infer_dtypes():
    k = build("{[i]: 0<=i<n}", [assign("s0", "out[i]", "2*a[i]", ["i"])],
              args=[ArrayArg(name="out"), ArrayArg(name="a"), ValueArg(name="n")])
    out = transforms.add_and_infer_dtypes(k, {"a": "float32"})
    assert out.arg("a").dtype == np.float32
    assert out.arg("out").dtype == np.float32
    with pytest.raises(TransformError, match="kernel_name 'other' does not name this kernel"):
        transforms.add_and_infer_dtypes(k, {"a": "float32"}, kernel_name="other")


def test_infer_unknown_types_uses_ir_types():
    from translator.ir.types import infer_unknown_types as reference
    k = transforms.add_dtypes(knl(), {"a": "float64"})
    assert transforms.infer_unknown_types(k) == reference(k)


def test_set_options_knows_every_option_field():
    import dataclasses

    import translator
    knl = translator.make_kernel("{[i]: 0<=i<n}", "a[i] = 2*b[i]")
    for f in dataclasses.fields(Options):
        if f.name in ("extra", "source_language", "preamble", "fixed_parameters"):
            continue
        out = transforms.set_options(knl, **{f.name: True})
        assert getattr(out.options, f.name) is True
    # what fix_parameters fixed is its record, not an option to set
    with pytest.raises(TransformError, match="call fix_parameters"):
        transforms.set_options(knl, fixed_parameters=(("n", 5, "int32"),))
