"""The kernel language: expressions, domains, statements, attributes, heuristics, data."""

from __future__ import annotations


import numpy as np
import pymbolic.primitives as p
import pytest

from translator.diagnostics import DomainError, KernelLanguageError
from translator.ir.data import ArrayArg, FixedStrideTag, NestingTag, SeparateTag, ValueArg
from translator.ir.expr import LinearSubscript, Reduction, TaggedVariable, TypeCast
from translator.ir.isl_glue import inames_of, params_of
from translator.ir.parse import GlobalArg, TemporaryVariable, make_kernel
from translator.ir.parse import ValueArg as MakeValueArg
from translator.ir.parse_expr import parse_expression
from translator.ir.statements import (Assignment, BarrierInstruction, CallInstruction,
                                      NoOpInstruction)

i, j, k, a, b, c = (p.Variable(n) for n in "ijkabc")
INAMES = {"i", "j", "k"}


def pe(text: str):
    return parse_expression(text, INAMES)


def stmt_map(knl):
    return {s.id: s for s in knl.statements}


# ---------------------------------------------------------------------------------------------
# expressions


def test_linear_subscript_and_tagged_variable():
    assert pe("a[[8*i + j]]") == LinearSubscript(a, p.Sum((p.Product((8, i)), j)))
    assert pe("a$mytag[i]") == p.Subscript(TaggedVariable("a", "mytag"), i)


def test_if_function_form_and_python_form():
    assert pe("if(i > 0, a, b)") == p.If(p.Comparison(i, ">", 0), a, b)
    assert pe("a if i > 0 else b") == p.If(p.Comparison(i, ">", 0), a, b)
    with pytest.raises(KernelLanguageError, match="exactly three arguments"):
        pe("if(a, b)")


@pytest.mark.parametrize("text,inames,op", [
    ("sum(k, a[k])", ("k",), "sum"),
    ("sum((i, j), a[i, j])", ("i", "j"), "sum"),
    ("sum([i, j], a[i, j])", ("i", "j"), "sum"),
    ("product(k, a[k])", ("k",), "product"),
    ("max(k, a[k])", ("k",), "max"),
    ("min([k], a[k])", ("k",), "min"),
])
def test_reductions(text, inames, op):
    red = pe(text)
    assert isinstance(red, Reduction)
    assert (red.operation, red.inames, red.allow_simultaneous) == (op, inames, False)


def test_max_of_two_values_is_the_ir_function():
    assert pe("max(a, b)") == p.Call(p.Variable("max"), (a, b))
    assert pe("min(a, 0)") == p.Call(p.Variable("min"), (a, 0))
    # Without known inames a bare first argument cannot be a reduction iname.
    assert parse_expression("max(i, a)") == p.Call(p.Variable("max"), (i, a))


def test_reduce_and_simul_reduce():
    assert pe("reduce(sum, [k], a[k])") == Reduction("sum", ("k",), p.Subscript(a, k))
    assert pe("simul_reduce(max, [i, k], a)") == Reduction("max", ("i", "k"), a, True)
    with pytest.raises(KernelLanguageError, match="unknown reduction operation 'mean'"):
        pe("reduce(mean, [k], a)")
    with pytest.raises(KernelLanguageError, match="unknown reduction iname 'q'"):
        pe("sum(q, a)")


def test_cast_and_typed_constants():
    cast = pe("cast(float32, a + 1)")
    assert isinstance(cast, TypeCast) and cast.dtype == np.float32
    for text, value in [("float32(0.5)", np.float32(0.5)), ("int64(-3)", np.int64(-3)),
                        ("complex64(1.0, -2.0)", np.complex64(1 - 2j)),
                        ("uint8(200)", np.uint8(200)), ("float32(-inf)", np.float32(-np.inf))]:
        got = pe(text)
        assert type(got) is type(value) and got == value
    assert type(pe("0.1")) is float and pe("0.1") == 0.1
    assert type(pe("1.5f")) is np.float32
    with pytest.raises(KernelLanguageError, match="unknown type 'flot32'"):
        pe("cast(flot32, a)")


def test_operator_chains_grouping_and_negation():
    assert pe("a + b + c") == p.Sum((a, b, c))
    assert pe("(a + b) + c") == p.Sum((p.Sum((a, b)), c))
    assert pe("a - b") == p.Sum((a, p.Product((-1, b))))
    assert pe("a - 2") == p.Sum((a, -2))
    assert pe("-a") == p.Product((-1, a))
    assert pe("a*b/c") == p.Quotient(p.Product((a, b)), c)     # left to right, as in C
    assert pe("a // 2 % 3") == p.Remainder(p.FloorDiv(a, 2), 3)
    assert pe("-a**2") == p.Product((-1, p.Power(a, 2)))


def test_logic_comparisons_and_math_calls():
    assert pe("a < b and not c or i == 0") == p.LogicalOr((
        p.LogicalAnd((p.Comparison(a, "<", b), p.LogicalNot(c))), p.Comparison(i, "==", 0)))
    assert pe("sqrt(a) + exp(b)") == p.Sum((p.Call(p.Variable("sqrt"), (a,)),
                                            p.Call(p.Variable("exp"), (b,))))


def test_malformed_expressions_name_the_text():
    with pytest.raises(KernelLanguageError, match=r"malformed expression '\(a \+'"):
        pe("(a +")
    with pytest.raises(KernelLanguageError, match="only allowed as the inames of a reduction"):
        pe("f([a, b])")


# ---------------------------------------------------------------------------------------------
# domains


@pytest.mark.parametrize("text,inside,outside", [
    ("[n] -> {[i]: 0 <= i < n}", {"n": 5, "i": 4}, {"n": 5, "i": 5}),
    ("{[i]: i > 0 and i <= 15}", {"i": 15}, {"i": 0}),
    ("{[i]: 0 < i <= 15}", {"i": 1}, {"i": 16}),
    ("{[i, j]: 0 < i, j <= 15}", {"i": 1, "j": 15}, {"i": 1, "j": 0}),
    ("{[i, j]: 0 <= j < 5 and i = j*3}", {"i": 6, "j": 2}, {"i": 5, "j": 2}),
    ("{[i]: 0 <= i < 30 and i mod 3 = 0}", {"i": 27}, {"i": 28}),
    ("{[i]: 0 <= i < 30 and (exists l: i = 3*l)}", {"i": 27}, {"i": 28}),
])
def test_domain_constructs(text, inside, outside):
    dom = make_kernel(text, "out[0] = 1").domains[0]

    def contains(point):
        cond = " and ".join(f"{name} = {v}" for name, v in point.items())
        probe = make_kernel(text.replace("}", f" and {cond}}}", 1), "out[0] = 1").domains[0]
        return not probe.is_empty()

    assert "i" in inames_of(dom)
    assert contains(inside) and not contains(outside)


def test_domain_list_forest_and_params():
    knl = make_kernel(["{[i]: 0 <= i < n}", "{[j]: 0 <= j <= i}"], "out[i, j] = 1")
    assert [inames_of(d) for d in knl.domains] == [("i",), ("j",)]
    assert params_of(knl.domains[1]) == ("i",)
    assert [x.name for x in knl.args] == ["out", "n"]
    assert make_kernel("{[i]: 0<=i<n} {[j]: 0<=j<m}", "o[i, j] = 1").domains[1] is not None


@pytest.mark.parametrize("domain,message", [
    ("{[i]: 0 <= i < n", "missing '}'"),
    ("{[i]: 0 <= i < n or i > 5}", "not convex"),
    ("{[i]: (i = 1 or i = 5)}", "not convex"),
    ("{[i]: 0 <= i == n}", "write equality as '='"),
    ("[n] -> {[i]: 0 <= i < m}", "unknown name 'm'"),
    ("{[i, j]: 0 <= i < n and 0 <= j < i*n}", "product 'i\\*n'"),
    ("{[i]: 0 <= i < foo(n)}", "function call 'foo'"),
    ("{[i]: 0 <= i}", "unbounded in iname\\(s\\) i"),
    ("{[i]: 0 <= i < n} {[i]: 0 <= i < m}", "iname 'i' is defined by more than one domain"),
    ("{[i]: 0<=i<n} {[j]: 0<=j<k} {[k]: 0<=k<n}", "ill-formed forest"),
    ("garbage", "expected '\\{\\[inames\\]: conditions\\}'"),
    ("{[i i]: 0 <= i < n}", "bad iname list"),
    ("{[i]: 0 <= i < n +}", "malformed domain"),
])
def test_domain_errors(domain, message):
    with pytest.raises(DomainError, match=message) as info:
        make_kernel(domain, "out[0] = 1")
    assert "isl_" not in str(info.value)


# ---------------------------------------------------------------------------------------------
# statements and attributes


def test_temporaries_declared_in_statements():
    knl = make_kernel("{[i, j]: 0 <= i < n and 0 <= j < 4}", """
        <> s = 0 {id=init}
        <float64> t[j] = a[i, j] {id=w}
        s = s + t[j] {id=acc, dep=init:w}
        out[i] = s {dep=acc}
        """)
    s, t = knl.temporaries["s"], knl.temporaries["t"]
    assert (s.dtype, s.shape) == (None, ())
    assert (t.dtype, t.shape) == (np.dtype(np.float64), (4,))
    assert [x.name for x in knl.args] == ["a", "out", "n"]


def test_multiple_results_and_single_result_calls():
    knl = make_kernel("{[i]: 0 <= i < n}", """
        x[i], y[i] = sincos(a[i]) {id=two}
        z[i], = f(a[i]) {id=one}
        """)
    two, one = stmt_map(knl)["two"], stmt_map(knl)["one"]
    assert isinstance(two, CallInstruction) and len(two.assignees) == 2
    assert isinstance(one, CallInstruction) and len(one.assignees) == 1
    with pytest.raises(KernelLanguageError, match="needs a function call"):
        make_kernel("{[i]: 0 <= i < n}", "x[i], y[i] = a[i]")


def test_substitution_rules_are_kept_and_expanded_for_analysis():
    knl = make_kernel("{[i]: 0 <= i < n}", """
        sq(x) := x*x
        f(x) := sq(a[x]) + 1
        out[i] = f(i)
        """)
    assert set(knl.substitutions) == {"sq", "f"}
    assert knl.substitutions["f"].arguments == ("x",)
    assert knl.statements[0].expression == p.Call(p.Variable("f"), (i,))
    arg = knl.arg("a")          # read only through the rules
    assert isinstance(arg, ArrayArg) and arg.shape == (p.Variable("n"),) and arg.is_input
    with pytest.raises(KernelLanguageError, match="'f' is recursive"):
        make_kernel("{[i]: 0<=i<n}", "o[i] = f(i)\nf(x) := g(x)\ng(y) := f(y)")
    with pytest.raises(KernelLanguageError, match="takes 1 argument"):
        make_kernel("{[i]: 0<=i<n}", "o[i] = f(i, 1)\nf(x) := x")


def test_every_attribute():
    knl = make_kernel("{[i, j]: 0 <= i, j < n}", """
        a[i] = 1 {id=first, priority=5, tags=t1:t2, groups=g1, conflicts_grp=g2}
        b[i] = a[i] {id=second, inames=i:j, nosync=first@local, if=i > 0:flag, atomic}
        c[i] = 2 {id_prefix=pre, dep=*first, nosync=sec*@global:first}
        ... lbarrier {id=bar, dep=first:second, mem_kind=global}
        ... nop {id=nothing, dep=*}
        """)
    s = stmt_map(knl)
    assert (s["first"].priority, s["first"].tags) == (5, frozenset({"t1", "t2"}))
    assert s["first"].groups == {"g1"} and s["first"].conflicts_with_groups == {"g2"}
    assert s["second"].within_inames == {"i", "j"}
    assert s["second"].no_sync_with == {("first", "local")}
    assert s["second"].predicates == {p.Comparison(i, ">", 0), p.Variable("flag")}
    assert s["second"].atomicity == {"b"}
    assert s["pre"].depends_on == {"first"}
    assert s["pre"].no_sync_with == {("second", "global"), ("first", "any")}
    bar = s["bar"]
    assert isinstance(bar, BarrierInstruction)
    assert (bar.synchronization_kind, bar.mem_kind) == ("local", "global")
    assert bar.depends_on == {"first", "second"}
    assert isinstance(s["nothing"], NoOpInstruction) and not s["nothing"].depends_on


def test_automatic_ids_are_deterministic_and_avoid_explicit_ones():
    knl = make_kernel("{[i]: 0 <= i < n}", """
        a[i] = 1
        b[i] = 2 {id=insn_0}
        c[i] = 3
        d[i] = 4 {id_prefix=upd}
        e[i] = 5 {id_prefix=upd}
        """)
    assert [s.id for s in knl.statements] == ["insn", "insn_0", "insn_1", "upd", "upd_0"]


def test_inames_plus_adds_to_the_heuristic():
    knl = make_kernel("{[i, j]: 0 <= i, j < n}", "a[i] = 1 {inames=+j}")
    assert knl.statements[0].within_inames == {"i", "j"}


def test_dep_wildcards_and_star():
    knl = make_kernel("{[i]: 0 <= i < n}", """
        a[i] = 1 {id=w_a}
        b[i] = 1 {id=w_b}
        c[i] = a[i] + b[i] {id=reader, dep=*w_*}
        d[i] = a[i] {id=plain, dep=w_b}
        """)
    s = stmt_map(knl)
    assert s["reader"].depends_on == {"w_a", "w_b"}
    assert s["plain"].depends_on == {"w_a", "w_b"}     # explicit plus heuristic (a -> w_a)


@pytest.mark.parametrize("instructions,message", [
    ("a[i] = 1 {foo=3}", "unknown attribute 'foo'"),
    ("a[i] = 1 {priority=x}", "bad value 'x' for attribute 'priority'"),
    ("a[i] = 1 {inames=i:q}", "statement 'insn': unknown iname 'q' in 'inames='"),
    ("a[i] = 1 {dep=nothere}", "dep='nothere': no statement has this id"),
    ("a[i] = 1 {dep=zz*}", "dep='zz\\*' matches no other statement"),
    ("a[i] = 1 {id=x, dep=x}", "cannot depend on itself"),
    ("a[i] = 1 {id=x}\nb[i] = 2 {id=x}", "duplicate statement id 'x'"),
    ("a[i] = 1 {nosync=x@foo}", "unknown scope 'foo'"),
    ("a[i] = 1 {id}", "attribute 'id' needs a value"),
    ("a[i] = 1 {id=a, id=b}", "attribute 'id' given twice"),
    ("a[i] = 1 {mem_kind=local}", "applies to barriers only"),
    ("a[i] 1", "malformed statement"),
    ("a[i] = 1 {id=a", "unbalanced braces|must end the line"),
    ("... fence", "unknown special statement"),
    ("a[i] = b[ii]", "statement 'insn': undefined name 'ii' in a subscript"),
    ("a[i] = sum(k, b[i])", "statement 'a\\[i\\] = sum\\(k, b\\[i\\]\\)': .*unknown "
                            "reduction iname 'k'"),
    ("a[i] = a[i][0]", "write a\\[i, j\\], not a\\[i\\]\\[j\\]"),
    ("2*a[i] = 1", "cannot assign to"),
    ("<foo> t = 1", "unknown type 'foo'"),
    ("<> t = 1 {id=a}\n<> t = 2", "temporary 't' declared twice"),
    ("s = a[i]", "scalar 's' is written .* declare a temporary with '<> s = ...'"),
    ("a[i] = b[i]\nc[i] = b[i, 0]", "array 'b' is subscripted with different numbers"),
    ("<> t[i] = 1", "temporary 't': the extent along axis 0 is not a constant"),
    ("f(x x) := x", "malformed argument list"),
])
def test_statement_errors(instructions, message):
    with pytest.raises(KernelLanguageError, match=message):
        make_kernel("{[i]: 0 <= i < n}", instructions)


def test_statement_objects_in_the_instruction_list():
    given = Assignment(id="obj", assignee=p.Subscript(b, i), expression=p.Subscript(a, i))
    knl = make_kernel("{[i]: 0 <= i < n}", ["a[i] = 1 {id=w}", given])
    obj = stmt_map(knl)["obj"]
    assert obj.within_inames == {"i"} and obj.depends_on == {"w"}


def test_dep_query_and_nosync_query_use_the_match_language():
    pytest.importorskip("transforms.match")
    knl = make_kernel("{[i]: 0 <= i < n}", """
        a[i] = 1 {id=x1, tags=init}
        b[i] = 2 {id=x2, tags=init}
        c[i] = 3 {id=r, dep_query=tag:init, nosync_query=id:x1@local}
        """)
    r = stmt_map(knl)["r"]
    assert r.depends_on == {"x1", "x2"} and r.no_sync_with == {("x1", "local")}


def test_dup_calls_duplicate_inames_or_says_it_is_missing():
    try:
        import transforms
        available = hasattr(transforms, "duplicate_inames")
    except ImportError:
        available = False
    text = "a[i] = 1 {id=s1}\nb[i] = 2 {id=s2, dup=i->i_new}"
    if not available:
        with pytest.raises(KernelLanguageError, match="dup= needs duplicate_inames"):
            make_kernel("{[i]: 0 <= i < n}", text)
        return
    knl = make_kernel("{[i]: 0 <= i < n}", text)
    assert stmt_map(knl)["s2"].within_inames == {"i_new"}
    assert stmt_map(knl)["s1"].within_inames == {"i"}


# ---------------------------------------------------------------------------------------------
# heuristics


def test_within_inames_from_writers_and_not_from_reductions():
    knl = make_kernel("{[i, j, k]: 0 <= i, j, k < n}", """
        <> t = x[i] {id=t}
        out[j] = t {id=use}
        c[i, j] = sum(k, a[i, k]*b[k, j]) {id=mm}
        d[i] = c[i, 0] {id=d}
        """)
    s = stmt_map(knl)
    assert s["t"].within_inames == {"i"}
    assert s["use"].within_inames == {"i", "j"}   # t's writer is inside i, not indexed by it
    assert s["mm"].within_inames == {"i", "j"}     # the reduction iname k is not included
    assert s["d"].within_inames == {"i"}           # c's writer indexes c with i and j


def test_dependency_heuristic_single_writer_only_and_seq():
    text = """
        a[i] = 1 {id=w1}
        a[i] = a[i] + 1 {id=w2}
        b[i] = 2 {id=wb}
        c[i] = a[i] + b[i] {id=r}
        """
    s = stmt_map(make_kernel("{[i]: 0 <= i < n}", text))
    assert s["r"].depends_on == {"wb"}          # a has two writers: no automatic dependency
    assert s["w2"].depends_on == frozenset()    # a reader never depends on itself
    seq = stmt_map(make_kernel("{[i]: 0 <= i < n}", text, seq_dependencies=True))
    assert seq["w2"].depends_on == {"w1"} and seq["wb"].depends_on == {"w2"}
    assert seq["r"].depends_on == {"wb"}


def test_data_dependent_domain():
    knl = make_kernel(["{[l]: 0 <= l < 3}", "{[j]: 0 <= j < len}"], """
        <int32> len = lens[l] {id=get}
        out[l, j] = 1 {id=use}
        """, [GlobalArg("out", np.float32, shape="3, 100"), "..."])
    s = stmt_map(knl)
    assert s["use"].within_inames == {"l", "j"} and s["use"].depends_on == {"get"}
    assert [x.name for x in knl.args] == ["out", "lens"]   # len is a temporary, not a param


# ---------------------------------------------------------------------------------------------
# kernel data


def test_inferred_shapes_and_io():
    knl = make_kernel("{[i, j]: 0 <= i < n and 0 <= j <= i}",
                      "out[i, j] = a[i + 1, j] + x[j] + s")
    out, arr, x, s = (knl.arg(n) for n in ("out", "a", "x", "s"))
    n = p.Variable("n")
    assert out.shape == (n, n) and (out.is_input, out.is_output) == (False, True)
    assert arr.shape == (p.Sum((n, 1)), n) and (arr.is_input, arr.is_output) == (True, False)
    assert x.shape == (n,)
    assert isinstance(s, ValueArg)
    assert [q.name for q in knl.args] == ["out", "a", "x", "s", "n"]


def test_kernel_data_constructors():
    knl = make_kernel("{[i, j]: 0 <= i < n and 0 <= j < m}", "out[i, j] = a[i, j] * alpha", [
        GlobalArg("out", np.float32, shape="n, m", order="F"),
        GlobalArg("a", np.float32, dim_tags="N0,stride:2*n"),
        MakeValueArg("alpha", np.float32),
        TemporaryVariable("tmp", np.float64, shape=(4,), address_space="local"),
        "...",
    ])
    out, arr = knl.arg("out"), knl.arg("a")
    assert out.dim_tags == (NestingTag(level=0), NestingTag(level=1))
    assert arr.shape == (p.Variable("n"), p.Variable("m"))     # inferred, layout applied
    assert arr.dim_tags[1] == FixedStrideTag(stride=p.Product((2, p.Variable("n"))))
    assert knl.arg("alpha").dtype == np.float32
    assert knl.temporaries["tmp"].address_space.value == "local"
    assert [q.name for q in knl.args] == ["out", "a", "alpha", "m", "n"]
    sep = GlobalArg("v", np.float32, shape=(3, "n"), dim_tags="sep,c")
    assert isinstance(sep.dim_tags[0], SeparateTag)


def test_kernel_data_without_ellipsis_must_be_complete():
    with pytest.raises(KernelLanguageError, match="variable\\(s\\) b not declared in "
                                                  "kernel_data \\(add '...'"):
        make_kernel("{[i]: 0 <= i < n}", "a[i] = b[i]", [GlobalArg("a", np.float32)])
    knl = make_kernel("{[i]: 0 <= i < n}", "a[i] = 1", [GlobalArg("a", np.float32)])
    assert [q.name for q in knl.args] == ["a", "n"]


def test_kernel_level_options_assumptions_and_name():
    knl = make_kernel("{[i]: 0 <= i < n}", "a[i] = 1", name="fill", assumptions="n >= 1",
                      options={"source_language": "fortran", "my_flag": 3})
    assert knl.name == "fill"
    assert params_of(knl.assumptions) == ("n",) and knl.assumptions.is_params()
    assert knl.options.source_language == "fortran" and knl.options.extra["my_flag"] == 3
    with pytest.raises(DomainError, match="not convex"):
        make_kernel("{[i]: 0 <= i < n}", "a[i] = 1", assumptions="n < 0 or n > 5")


def test_value_argument_cannot_be_written():
    with pytest.raises(KernelLanguageError, match="value argument 's' is written"):
        make_kernel("{[i]: 0 <= i < n}", "s = 1", [MakeValueArg("s", np.int32), "..."])


# ---------------------------------------------------------------------------------------------
# many statements (speed is measured in bench/bench_engine.py, not here)


def test_many_statements_parse():
    lines = "\n".join(f"<> t{q} = a[i] + {q} {{id=s{q}}}\nout{q % 7}[i] = t{q} * b[i, j]"
                      for q in range(250))
    knl = make_kernel("{[i, j]: 0 <= i < n and 0 <= j < m}", lines)
    assert len(knl.statements) == 500


def test_unknown_inames_are_domain_errors():
    for text in ("a[i] = 1 {inames=q}", "a[i] = sum(q, 1)", "a[i] = b[q]"):
        with pytest.raises(DomainError, match="'q'"):
            make_kernel("{[i]: 0 <= i < n}", text)


def test_optional_dim_tags_and_isl_printed_domains():
    arg = GlobalArg("v", np.float32, shape=(3, 4), dim_tags="sep?,N1,N0")
    assert arg.dim_tags == (NestingTag(level=1), NestingTag(level=0))
    text = "[n] -> { [i] : exists (e0 = floor((i)/3): 3e0 = i and 0 <= i < n) }"
    knl = make_kernel(text, "out[i] = 1")
    assert knl.domains[0] == make_kernel("{[i]: 0 <= i < n and i mod 3 = 0}",
                                         "out[i] = 1").domains[0]


def test_assigning_to_an_iname_is_an_error():
    with pytest.raises(KernelLanguageError, match="cannot assign to iname 'i'"):
        make_kernel("{[i]: 0 <= i < n}", "i = 3")


@pytest.mark.parametrize("text", ["a+b*2.5e-3", "1.5f + x$t[i] >= 3 and not y",
                                  "a[[i]] // 2 ** -1.0", "if(i>0, 1j, 2.)", "f(x,y)<<3|~z^w&v",
                                  "a != b == c <= d", "android or iffy", "True+False"])
def test_fast_lexer_matches_pymbolic(text):
    import pytools.lex
    from pymbolic.parser import Parser

    from translator.ir.parse_expr import _lex
    mine = [t[:3] for t in _lex(text)]
    ref = [t[:3] for t in pytools.lex.lex(Parser.lex_table, text) if t[0] != "whitespace"]
    assert mine == ref and all(x[0] is y[0] for x, y in zip(mine, ref))


def test_malformed_assumptions():
    with pytest.raises(DomainError, match="malformed assumptions 'n >=': .*e.g. 'n >= 1'"):
        make_kernel("{[i]: 0 <= i < n}", "a[i] = 1", assumptions="n >= ")
    with pytest.raises(DomainError, match="write equality as '='"):
        make_kernel("{[i]: 0 <= i < n}", "a[i] = 1", assumptions="n == 4")


def test_statement_on_a_branching_part_of_the_forest():
    with pytest.raises(DomainError, match="statement 'insn': .*branching"):
        make_kernel(["{[l]: 0 <= l < 3}", "{[i]: 0 <= i < l}", "{[j]: 0 <= j < l}"],
                    "out[l, i, j] = 1")
