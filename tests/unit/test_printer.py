"""The IR printer: ``parse_kernel(print_kernel(k)) == k`` and exact expression text."""

from __future__ import annotations

import numpy as np
import pymbolic.primitives as p
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from translator.diagnostics import KernelLanguageError
from translator.ir.data import (AddressSpace, ArrayArg, FixedStrideTag, NestingTag,
                                SeparateTag, TemporaryVariable, ValueArg, VectorTag)
from translator.ir.expr import LinearSubscript, Reduction, TaggedVariable, TypeCast
from translator.ir.isl_glue import parse_domain
from translator.ir.kernel import Kernel, Options
from translator.ir.parse import GlobalArg, make_kernel, parse_kernel
from translator.ir.parse import TemporaryVariable as MakeTemporary
from translator.ir.parse_expr import parse_expression
from translator.ir.printer import expr_text, print_kernel
from translator.ir.statements import Assignment, CallInstruction
from translator.ir.tags import parse_tag
from translator.ir.util import FrozenDict

a, b, c, x, i, j, k = (p.Variable(n) for n in "abcxijk")


def assert_round_trip(knl: Kernel) -> str:
    text = print_kernel(knl)
    back = parse_kernel(text)
    assert back == knl
    # isl's equality ignores names: compare the sets' text too.
    assert [str(d) for d in back.domains] == [str(d) for d in knl.domains]
    assert str(back.assumptions) == str(knl.assumptions)
    assert print_kernel(back) == text
    return text


def tagged(knl: Kernel, **tags: str) -> Kernel:
    return knl.copy(iname_tags=FrozenDict(
        (iname, frozenset(parse_tag(t) for t in spec.split(","))) for iname, spec in tags.items()))


# ---------------------------------------------------------------------------------------------
# kernels


def test_saxpy_text_is_readable_and_round_trips():
    knl = make_kernel("{[i]: 0 <= i < n}", "y[i] = a*x[i] + y[i]",
                      [GlobalArg("y", np.float32), GlobalArg("x", np.float32), "..."],
                      name="saxpy")
    text = assert_round_trip(knl)
    assert text.splitlines()[0] == "kernel saxpy"
    assert "  y[i] = a*x[i] + y[i]  {id=insn, inames=i, dep=*}" in text
    assert ("  y: array, dtype=float32, shape=(n,), dim_tags=(N0,), is_input=True, "
            "is_output=True") in text


def test_matmul_with_reduction_tags_and_priorities():
    knl = make_kernel("{[i, j, k]: 0 <= i < n and 0 <= j < m and 0 <= k < l}",
                      "c[i, j] = sum(k, a[i, k]*b[k, j])", assumptions="n >= 1 and m >= 1")
    knl = tagged(knl, i="g.0", j="l.0,ilp.unr", k="unr")
    knl = knl.copy(loop_priority=frozenset({("i", "k"), ("j", "k")}))
    text = assert_round_trip(knl)
    assert "  c[i, j] = sum([k], a[i, k]*b[k, j])  {id=insn, inames=i:j, dep=*}" in text
    assert "  j: ilp.unr, l.0" in text and "  i, k\n  j, k" in text


def test_triangular_domain_and_forest_indentation():
    knl = make_kernel(["{[i]: 0 <= i < n}", "{[j]: 0 <= j <= i}", "{[q]: 0 <= q < 4}"],
                      "out[i, j] = a[i, j] + q {inames=i:j:q}")
    text = assert_round_trip(knl)
    assert "domains:\n  { [i] : 0 <= i < n }\n    { [j] : 0 <= j <= i }\n  { [q]" in text


def test_data_dependent_child_domain():
    knl = make_kernel(["{[l]: 0 <= l < 3}", "{[j]: 0 <= j < len}"], """
        <int32> len = lens[l] {id=get}
        out[l, j] = 2*inp[l, j] {id=use}
        """, [GlobalArg("out", np.float32, shape="3, 100"),
              GlobalArg("inp", np.float32, shape="3, 100"), "..."])
    assert_round_trip(knl)


def test_temporaries_attributes_and_barriers():
    knl = make_kernel("{[i, j]: 0 <= i < n and 0 <= j < 16}", """
        <float32> t[j] = a[i, j] {id=load, priority=2, tags=fetch:x, groups=g, conflicts_grp=h}
        ... lbarrier {id=bar, dep=load, mem_kind=global}
        s[i] = t[j] {id=use, dep=*bar, nosync=load@local:bar, if=i > 0:flag, atomic}
        u[i], v[i] = f(t[0]) {id=call, atomic=u, nosync=use@global}
        ... nop {id=end, dep=call:use}
        """, [MakeTemporary("tab", np.float64, shape=(3,), address_space="global"), "..."])
    tab = TemporaryVariable(name="tab", dtype=np.float64, shape=(3,), read_only=True,
                            address_space=AddressSpace.PRIVATE, initializer=(1.0, 2.5, -3.0),
                            base_storage="base")
    knl = knl.copy(temporaries=knl.temporaries.set("tab", tab))
    text = assert_round_trip(knl)
    assert "{id=use, inames=i:j, dep=*bar, nosync=bar:load@local, if=flag:i > 0, atomic}" in text
    assert "atomic=u" in text and "mem_kind=global" in text


def test_typed_constants_rules_and_casts():
    knl = make_kernel("{[i]: 0 <= i < n}", """
        f(x, y) := x*float32(0.1) + y
        g := 2
        out[i] = f(a[i], g) + float64(1e-300) + int64(-7) + 0.1 + cast(float16, a[i])
        """)
    text = assert_round_trip(knl)
    assert "f(x, y) := x*float32(0.1) + y" in text and "g() := 2" in text
    consts = knl.statements[0].expression.children
    assert type(consts[1]) is np.float64 and type(consts[2]) is np.int64


def test_dim_tags_offsets_and_aliasing():
    n = p.Variable("n")
    arg = ArrayArg(name="v", dtype=np.float32, shape=(3, n, 4),
                   dim_tags=(SeparateTag(), FixedStrideTag(stride=p.Product((4, n))),
                             VectorTag(optional=True)),
                   offset=p.Sum((n, 1)), is_input=True, may_alias=frozenset({"w", "u"}),
                   address_space=AddressSpace.LOCAL)
    unknown = ArrayArg(name="w", shape=(None, 4), dim_tags=(NestingTag(level=1),
                                                            NestingTag(level=0)))
    knl = make_kernel("{[i]: 0 <= i < n}", "v[0, i, 1] = w[i, 2]",
                      [arg, unknown, ValueArg(name="n", dtype=np.int32)])
    text = assert_round_trip(knl)
    assert "dim_tags=(sep, stride:4*n, vec?)" in text and "offset=n + 1" in text


def test_options_assumptions_and_parameter_prefix():
    dom = parse_domain("[n, m] -> {[i]: 0 <= i < n}")      # m unused: needs the prefix
    knl = make_kernel(dom, "a[i] = 1", assumptions="[n, m] -> { : n >= 1 and m mod 4 = 0 }",
                      options=Options(source_language="c", preamble="#define X 1\n",
                                      extra=FrozenDict({"vendor": ("a", 1)})))
    text = assert_round_trip(knl)
    assert "[n, m] -> { [i] : 0 <= i < n }" in text
    assert "  preamble = '#define X 1\\n'" in text and "extra.vendor = ('a', 1)" in text


def test_kernel_built_from_ir_objects():
    """Trees no text parser would build (1-tuple subscripts, nested sums) still round-trip."""
    stmt = Assignment(id="s", within_inames=frozenset({"i"}),
                      assignee=p.Subscript(a, (i,)),
                      expression=p.Sum((p.Sum((b, c)), p.Product((-1, p.Sum((x, 1)))),
                                        LinearSubscript(c, p.Product((2, i))))),
                      predicates=frozenset({p.LogicalNot(p.Comparison(i, "==", 0))}))
    call = CallInstruction(id="t", depends_on=frozenset({"s"}),
                           assignees=(p.Subscript(b, 0),), expression=p.Call(p.Variable("f"),
                                                                             (a,)))
    knl = Kernel(name="direct", domains=(parse_domain("{[i]: 0 <= i < 10}"),),
                 statements=(stmt, call),
                 args=(ArrayArg(name="a", shape=(10,)), ValueArg(name="x")))
    assert_round_trip(knl)


def test_transformed_kernel_round_trips():
    transforms = pytest.importorskip("transforms")
    knl = make_kernel("{[i, j]: 0 <= i, j < n}", "out[i, j] = 2*a[i, j]")
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    assert_round_trip(knl)


def test_output_is_deterministic():
    def build():
        return make_kernel("{[i]: 0 <= i < n}",
                           "a[i] = 1 {id=z, tags=c:b:a, nosync=y:x}\n"
                           "b[i] = 2 {id=y}\nc[i] = 3 {id=x}\nd[i] = a[i]+b[i] {dep=x:y:z}")
    text = print_kernel(build())
    assert text == print_kernel(build())
    assert "tags=a:b:c, nosync=x:y" in text and "dep=*x:y:z" in text


@pytest.mark.parametrize("text,message", [
    ("kernel\n", "starts with 'kernel NAME'"),
    ("kernel k\nfoo:\n  x\n", "unknown or repeated section 'foo:'"),
    ("kernel k\ninstructions:\n  a[0] = 1 {id=s}\n", "needs explicit id=, inames= and dep="),
    ("kernel k\nargs:\n  a: tensor\n", "kind must be 'array' or 'value'"),
    ("kernel k\nargs:\n  a: array, colour=red\n", "unknown field\\(s\\) colour"),
    ("kernel k\nargs:\n  a: array, dim_tags=(N0, zz)\n", "unknown dim tag 'zz'"),
    ("kernel k\noptions:\n  speed = fast\n", "not a literal"),
    ("kernel k\niname_tags:\n  i: g.x\n", "unknown iname tag"),
])
def test_malformed_printed_kernels(text, message):
    with pytest.raises(KernelLanguageError, match=message):
        parse_kernel(text)


# ---------------------------------------------------------------------------------------------
# expressions


EXPRESSIONS = [
    p.Sum((a, b, c)), p.Sum((p.Sum((a, b)), c)), p.Sum((a, p.Sum((b, c)))),
    p.Sum((a, p.Product((-1, b)))), p.Sum((a, -5)), p.Sum((-5, a)), p.Sum((a, -0.0)),
    p.Product((-1, 5)), p.Sum((a, p.Product((-1, 5)))), p.Product((a, p.Product((b, c)))),
    p.Product((p.Quotient(a, b), c)), p.Quotient(p.Product((a, b)), c),
    p.Quotient(a, p.Quotient(b, c)), p.FloorDiv(a, 2), p.Remainder(p.Product((-1, a)), 3),
    p.Power(a, p.Power(b, c)), p.Power(p.Power(a, b), c), p.Power(-2, a), p.Power(a, -2),
    p.LogicalAnd((p.LogicalAnd((a, b)), c)), p.LogicalOr((p.LogicalAnd((a, b)), c)),
    p.BitwiseAnd((a, p.Comparison(b, "<", c))), p.Comparison(p.BitwiseAnd((a, b)), "<", c),
    p.BitwiseXor((p.BitwiseOr((a, b)), c)), p.LogicalNot(p.LogicalNot(a)), p.BitwiseNot(a),
    p.LeftShift(p.LeftShift(a, b), c), p.RightShift(a, p.Sum((b, 1))),
    p.If(p.Comparison(i, ">", 0), a, b), p.Subscript(a, (i, j)), p.Subscript(a, (i,)),
    LinearSubscript(a, p.Sum((p.Product((8, i)), j))), p.Subscript(TaggedVariable("a", "t"), i),
    TypeCast(np.dtype(np.int8), p.Sum((a, b))), Reduction("sum", ("k",), a),
    Reduction("max", ("i", "j"), a), Reduction("min", ("k",), a, True),
    Reduction("argmax", ("k",), a), p.Call(p.Variable("max"), (i, b)),
    np.float32(0.1), np.float32(-0.5), np.float16(1 / 3), np.int64(-3), np.uint64(2**63),
    np.complex128(1 - 2j), np.bool_(False), np.float32(np.inf), -0.0, 1e300, 5e-324,
    float("inf"), complex(1, -2), True, (a, b), (a,),
]


@pytest.mark.parametrize("expr", EXPRESSIONS, ids=[repr(e)[:40] for e in EXPRESSIONS])
def test_expression_text_round_trips(expr):
    from translator.ir.expr import REDUCTION_NAMES
    REDUCTION_NAMES.add("argmax")
    back = parse_expression(expr_text(expr), bare_reductions=False)
    assert back == expr and type(back) is type(expr)
    if isinstance(expr, np.generic):
        assert back.dtype == expr.dtype


def test_expression_text_is_readable():
    assert expr_text(p.Sum((a, p.Product((-1, p.Product((2, b))))))) == "a - 2*b"
    assert expr_text(p.Sum((p.Product((-1, a)), b))) == "-1*a + b"
    assert expr_text(np.float32(0.1)) == "float32(0.1)"
    assert expr_text(Reduction("sum", ("k",), a)) == "sum([k], a)"


_leaves = st.one_of(st.sampled_from([a, b, c, i]), st.integers(-3, 3),
                    st.floats(allow_nan=False, width=64),
                    st.floats(allow_nan=False, width=32).map(np.float32))


def _trees(children):
    pairs = st.tuples(children, children)
    return st.one_of(
        st.lists(children, min_size=2, max_size=3).map(lambda cs: p.Sum(tuple(cs))),
        st.lists(children, min_size=2, max_size=3).map(lambda cs: p.Product(tuple(cs))),
        children.map(lambda e: p.Product((-1, e))),
        pairs.map(lambda t: p.Quotient(*t)), pairs.map(lambda t: p.Remainder(*t)),
        pairs.map(lambda t: p.Power(*t)), pairs.map(lambda t: p.Comparison(t[0], "<=", t[1])),
        pairs.map(lambda t: p.LogicalOr(t)), children.map(p.LogicalNot),
        pairs.map(lambda t: p.If(t[0], t[1], a)), children.map(lambda e: p.Subscript(a, e)))


@settings(max_examples=150, deadline=None)
@given(st.recursive(_leaves, _trees, max_leaves=12))
def test_random_expressions_round_trip(expr):
    back = parse_expression(expr_text(expr), bare_reductions=False)
    assert back == expr
    assert expr_text(back) == expr_text(expr)


def test_names_that_cannot_be_written_are_refused():
    knl = make_kernel("{[i]: 0 <= i < n}", "a[i] = 1")
    bad = knl.copy(statements=(knl.statements[0].__class__(
        id="two words", assignee=knl.statements[0].assignee, expression=1),))
    with pytest.raises(KernelLanguageError, match="'two words' cannot be written"):
        print_kernel(bad)
