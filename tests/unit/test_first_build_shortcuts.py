"""Shortcuts of the API's first build, fifth round (issue 24): work a first build did twice
or whose answer is fixed by construction, done once or not at all.  Each shortcut must give
exactly the general path's answer; these tests compare both and fail where one differs."""

from __future__ import annotations

import random

import numpy as np
import pymbolic.primitives as p

from translator.codegen import emit
from translator.ir.expr import TaggedVariable, TypeCast, typed_key

NAMES = ("i", "j", "n", "i_inner", "long")


def _plain_leaf(rng: random.Random):
    return rng.choice([p.Variable(rng.choice(NAMES)), p.Variable(rng.choice(NAMES)),
                       rng.randint(-3, 3), rng.choice([np.int64(2), np.int32(2), np.uint8(1)])])


def _odd_leaf(rng: random.Random):
    """Leaves and nodes that are not plain (or plain only by their class's exact type)."""
    return rng.choice([2.5, np.float32(0.5), True, np.bool_(True), 1j,
                       TaggedVariable("i", "t"), p.Quotient(p.Variable("i"), 2),
                       p.FloorDiv(p.Variable("n"), 2), p.Call(p.Variable("f"), (1,)),
                       p.Subscript(p.Variable("a"), (p.Variable("i"),)),
                       TypeCast(np.dtype(np.float32), p.Variable("i"))])


def _random_expr(rng: random.Random, odd: float, depth: int = 0):
    if depth > 3 or rng.random() < 0.3:
        return _odd_leaf(rng) if rng.random() < odd else _plain_leaf(rng)

    def sub():
        return _random_expr(rng, odd, depth + 1)

    kind = rng.randrange(4)
    if kind == 0:
        return p.Sum(tuple(sub() for _ in range(rng.randint(2, 3))))
    if kind == 1:
        return p.Product(tuple(sub() for _ in range(rng.randint(2, 3))))
    if kind == 2:
        return TypeCast(rng.choice([np.dtype(np.int64), np.int64, np.dtype(np.int32),
                                    np.dtype(np.uint32)]), sub())
    return sub()


def _condition(rng: random.Random, odd: float):
    if rng.random() < 0.6:
        return p.Comparison(_random_expr(rng, odd), rng.choice(["<", "<=", ">=", "==", "!="]),
                            _random_expr(rng, odd))
    return _random_expr(rng, odd)


def _general_alpha_key(expr, condition: bool):
    """The general path's key up to names: `typed_key` with the variables numbered in the
    order of their first appearance (as `plain_shape` numbers them)."""
    names: list[str] = []
    for node in _variables(expr):
        if node not in names:
            names.append(node)
    return typed_key(expr, {n: str(k) for k, n in enumerate(names)}), tuple(names)


def _variables(expr):
    """Names of the variables of a plain expression, left to right."""
    if type(expr) is p.Variable:
        return [expr.name]
    if isinstance(expr, p.Comparison):
        return _variables(expr.left) + _variables(expr.right)
    if isinstance(expr, (p.Sum, p.Product)):
        return [n for c in expr.children for n in _variables(c)]
    if isinstance(expr, TypeCast):
        return _variables(expr.child)
    return []


def test_plain_shape_accepts_what_plain_index_accepts():
    """`plain_shape` answers None exactly where `plain_index` (or `_plain_condition`) says
    no, on random expressions with and without nodes that are not plain."""
    rng = random.Random(83)
    plain = refused = 0
    for _ in range(3000):
        expr = _condition(rng, rng.choice([0.0, 0.1, 0.4]))
        for condition, general in ((False, emit.plain_index), (True, emit._plain_condition)):
            shape = emit.plain_shape(expr, condition)
            assert (shape is not None) == general(expr), (expr, condition)
            if shape is not None:
                plain += 1
                assert shape[1] == tuple(dict.fromkeys(_variables(expr)))
            else:
                refused += 1
    assert plain > 1500 and refused > 1500


def test_plain_shape_keys_meet_exactly_where_typed_keys_up_to_names_do():
    """Two plain expressions have equal `plain_shape` keys exactly where their `typed_key`s
    with the variables numbered alike are equal (same nodes, constants of the same classes,
    same casts, the same variables up to a renaming one to one)."""
    rng = random.Random(1983)
    exprs = []
    while len(exprs) < 400:
        expr = _condition(rng, 0.0)
        if rng.random() < 0.5:   # a renamed copy of a small expression meets its original
            expr = p.Sum((p.Variable(rng.choice(NAMES)), rng.randint(0, 1)))
        if emit._plain_condition(expr):
            exprs.append(expr)
    shapes = [emit.plain_shape(e, True)[0] for e in exprs]
    general = [_general_alpha_key(e, True)[0] for e in exprs]
    met = 0
    for a in range(len(exprs)):
        for b in range(a + 1, len(exprs)):
            same = shapes[a] == shapes[b]
            assert same == (general[a] == general[b]), (exprs[a], exprs[b])
            met += same and str(exprs[a]) != str(exprs[b])
    assert met > 50   # renamed pairs do meet


def test_plain_shape_keeps_classes_and_cast_types_apart():
    i, j = p.Variable("i"), p.Variable("j")
    pairs = [
        (p.Sum((i, 1)), p.Sum((i, np.int64(1)))),
        (p.Sum((i, np.int32(1))), p.Sum((i, np.int64(1)))),
        (p.Sum((i, j)), p.Sum((i, i))),
        (p.Sum((i, j)), p.Product((i, j))),
        (TypeCast(np.dtype(np.int64), i), TypeCast(np.int64, i)),
        (TypeCast(np.dtype(np.int64), i), TypeCast(np.dtype(np.int32), i)),
        (p.Comparison(i, "<", j), p.Comparison(i, "<=", j)),
        (p.Comparison(i, "<", 1), p.Comparison(p.Sum((i,)), "<", 1)),
    ]
    for a, b in pairs:
        assert emit.plain_shape(a, True)[0] != emit.plain_shape(b, True)[0], (a, b)
    assert emit.plain_shape(p.Sum((i, j)), False)[0] == emit.plain_shape(p.Sum((j, i)), False)[0]
    assert emit.plain_shape(p.Sum((i, j)), False)[1] == ("i", "j")
    assert emit.plain_shape(p.Sum((j, i)), False)[1] == ("j", "i")


def _stencil_code(name: str = "fb_stencil") -> str:
    import bench.bench_loopy as bench
    lib = bench.ours()
    return lib.code(bench.stencil(lib, name))


def test_plain_texts_walk_each_expression_once(monkeypatch):
    """The stencil's subscripts and guard print with one walk each (`plain_shape`), not the
    general walks for names and keys (`dependencies`, two `typed_key`s, `plain_index`), and
    print what a process with the memo cleared prints."""
    emit.PLAIN_TEXTS.clear()
    asked: dict[str, list] = {"plain_index": [], "typed_key": [], "dependencies": []}
    for name in asked:
        original = getattr(emit, name)

        def spy(expr, *args, original=original, name=name, **kwargs):
            asked[name].append(expr)
            return original(expr, *args, **kwargs)
        monkeypatch.setattr(emit, name, spy)
    shapes: list = []
    original_shape = emit.plain_shape

    def count(expr, condition):
        shapes.append(expr)
        return original_shape(expr, condition)
    monkeypatch.setattr(emit, "plain_shape", count)
    first = _stencil_code()
    assert len(shapes) >= 9   # five distinct subscripts, four guard conditions
    walked = {id(e) for name in asked for e in asked[name]}
    assert not [e for e in shapes if id(e) in walked]
    emit.PLAIN_TEXTS.clear()
    assert _stencil_code() == first
    assert _stencil_code() == first   # from the templates


# -- untyped integer value arguments ----------------------------------------------------------

def _untyped_kernels():
    import translator
    from translator import GlobalArg, ValueArg
    f32 = np.float32
    return [
        translator.make_kernel("{[i]: 0<=i<n}", "y[i] = a*x[i]",
                               [GlobalArg("x", f32, shape="n"), GlobalArg("y", f32, shape="n"),
                                "..."], name="u1"),
        translator.make_kernel("{[i]: 0<=i<n}", "y[i] = x[i + off] + s",
                               [GlobalArg("x", f32, shape="m"), GlobalArg("y", f32, shape="n"),
                                ValueArg("s", f32), ValueArg("off"), "..."], name="u2"),
        translator.make_kernel("{[i]: 0<=i<n}", ["<> t = i + k", "y[t] = x[i]"],
                               [GlobalArg("x", f32, shape="n"), GlobalArg("y", f32, shape="w"),
                                ValueArg("k"), "..."], name="u3"),
        translator.make_kernel("{[i,j]: 0<=i<n and 0<=j<i}", "y[i] = y[i] + c*x[j]",
                               [GlobalArg("x", f32, shape="n"), GlobalArg("y", f32, shape="n"),
                                "..."], name="u4"),
        translator.make_kernel("{[i,j]: 0<=i<n and 0<=j<m}", "y[i, j] = 2*x[i, j]",
                               [GlobalArg("x", f32, shape="n, m"),
                                GlobalArg("y", f32, shape="n, m"), "..."], name="u5"),
    ]


def test_integer_value_arguments_from_the_parameters_alone():
    """Asked about the untyped value arguments and scalar temporaries, the answer from the
    domains' parameters alone (where they cover them all) is the full walk's answer for each
    of them; and the kernels' inferred types are the same either way."""
    from translator.ir import types
    checked = 0
    for knl in _untyped_kernels():
        wanted = {a.name for a in knl.value_args if a.dtype is None}
        wanted.update(n for n, t in knl.temporaries.items() if t.dtype is None and not t.shape)
        full = types._integer_used_names(knl)
        short = types._integer_used_names(knl, wanted)
        assert {n for n in wanted if n in short} == {n for n in wanted if n in full}, knl.name
        checked += bool(wanted)
    assert checked == 5


def test_integer_value_arguments_skip_the_walk_only_where_parameters_cover_them(monkeypatch):
    from translator.ir import types
    kernels = _untyped_kernels()
    walked: list = []
    original = types._IndexNames.__init__

    def spy(self, out):
        walked.append(1)
        original(self, out)
    monkeypatch.setattr(types._IndexNames, "__init__", spy)
    walks = []
    typed = []
    for knl in kernels:
        before = len(walked)
        typed.append(types.infer_unknown_types(knl))
        walks.append(len(walked) - before)
    # u1's a, u2's off, u3's k, t and w, u4's c are no parameters; u5's n and m are
    assert walks == [1, 1, 1, 1, 0]
    assert {a.name: str(a.dtype) for a in typed[0].value_args}["n"] == "int32"
    assert {a.name: str(a.dtype) for a in typed[1].value_args}["off"] == "int32"
    assert {a.name: str(a.dtype) for a in typed[4].value_args} == {"n": "int32", "m": "int32"}


# -- variable use of a statement (make_kernel) ------------------------------------------------

def _use_outcome(assignees, reads):
    from translator.ir import parse_infer
    from translator.ir.util import FrozenDict
    try:
        return ("ok", parse_infer.statement_use(assignees, reads,
                                                parse_infer.RuleExpander(FrozenDict())))
    except Exception as err:  # noqa: BLE001 - the same error either way
        return ("error", type(err), str(err))


def test_statement_use_walked_directly_equals_the_mapper(monkeypatch):
    """`statement_use` of random statements (assignee and reads with subscripts, reductions,
    calls, casts, tagged variables, subscripted non-variables) walked directly and by the
    mappers: the same use (names in order, accesses with their scopes, reads, writes), or
    the same error."""
    from tests.unit.test_python_shortcuts import _random_expr as _odd_expr
    from translator.ir import parse_infer
    from translator.ir.expr import Reduction
    rng = random.Random(8383)

    def common(depth=0):
        if depth > 2 or rng.random() < 0.3:
            return rng.choice([p.Variable(rng.choice("ijknxy")), rng.randint(-2, 5), 0.5,
                               np.float32(2), 1j])
        kind = rng.randrange(7)
        if kind == 0:
            return p.Sum(tuple(common(depth + 1) for _ in range(rng.randint(2, 3))))
        if kind == 1:
            return p.Product(tuple(common(depth + 1) for _ in range(rng.randint(2, 3))))
        if kind == 2:
            return p.Subscript(p.Variable(rng.choice("abx")),
                               tuple(common(depth + 1) for _ in range(rng.randint(1, 2))))
        if kind == 3:
            return rng.choice([p.Quotient, p.FloorDiv, p.Remainder, p.Power])(
                common(depth + 1), common(depth + 1))
        if kind == 4:
            return p.Call(p.Variable(rng.choice(["sqrt", "i"])), (common(depth + 1),))
        if kind == 5:
            return p.Comparison(common(depth + 1), "<", common(depth + 1))
        return Reduction("sum", tuple(rng.sample("ijk", 1)), common(depth + 1), False)

    def _random_expr(rng, depth=0):
        return common(depth) if rng.random() < 0.7 else _odd_expr(rng, depth)
    cases = []
    for _ in range(1500):
        target = p.Variable(rng.choice(["y", "t", "a"]))
        if rng.random() < 0.8:
            index = tuple(_random_expr(rng, 2) for _ in range(rng.randint(1, 2)))
            target = p.Subscript(target, index if len(index) > 1 else index[0])
        reads = [_random_expr(rng) for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.3:
            reads[0] = Reduction("sum", ("k",), p.Sum((reads[0], p.Subscript(
                p.Variable("b"), (p.Variable("k"), p.Variable("i"))))), False)
        cases.append(([target], reads))
    direct = [_use_outcome(*c) for c in cases]
    taken = sum(parse_infer._direct_use(*c) is not None for c in cases)
    monkeypatch.setattr(parse_infer, "_direct_use", lambda assignees, reads: None)
    general = [_use_outcome(*c) for c in cases]
    assert direct == general
    assert taken > 500 and taken < len(cases)   # both ways taken
    assert sum(d[0] == "error" for d in direct) > 0


def test_statement_use_of_rules_and_kernels(monkeypatch):
    """Kernels with and without substitution rules: equal kernels either way."""
    import translator
    from translator.ir import parse_infer
    from translator import GlobalArg

    def build():
        f32 = np.float32
        return [
            translator.make_kernel("{[i,j]: 1<=i,j<n-1}",
                                   "out[i,j] = u[i-1,j] + u[i+1,j] - 4*u[i,j]",
                                   [GlobalArg("u", f32, shape="n,n"),
                                    GlobalArg("out", f32, shape="n,n"), "..."], name="s1"),
            translator.make_kernel("{[i,k]: 0<=i,k<n}",
                                   ["sq(x) := x*x", "<> acc = sum(k, sq(a[i,k]))",
                                    "y[i] = acc if acc > 0 else 0"
                                    if False else "y[i] = acc"],
                                   [GlobalArg("a", f32, shape="n,n"), "..."], name="s2"),
            translator.make_kernel("{[i]: 0<=i<n}", "y[i] = x[i] {if=m[i]}",
                                   [GlobalArg("x", f32, shape="n"), "..."], name="s3"),
        ]
    direct = build()
    monkeypatch.setattr(parse_infer, "_direct_use", lambda assignees, reads: None)
    general = build()
    assert direct == general
    for a, b in zip(direct, general):
        assert translator.generate_code(a).device_code == translator.generate_code(b).device_code


# -- a local iname's range without its count ---------------------------------------------------

_RANGE_DOMAINS = [
    ("[n] -> { [i_outer, i_inner] : 0 <= i_inner <= 15 and 0 <= i_inner + 16i_outer < n }",
     ("i_inner", "i_outer")),
    ("[n] -> { [i_outer, i_inner] : 0 <= i_inner <= 15 and 1 <= i_inner + 16i_outer < n - 1 }",
     ("i_inner", "i_outer")),
    ("[n, m] -> { [i, j] : 0 <= i < n and i <= j < i + 8 and j < m }", ("i", "j")),
    ("[n] -> { [i] : n - 36 <= i < n and i >= 0 }", ("i",)),
    ("[n] -> { [i] : 2 <= i <= 9 }", ("i",)),
    ("[n] -> { [i] : 0 <= i < n and 4 * floor(i / 4) = i }", ("i",)),
    ("[n] -> { [i] : 0 <= i < n and n < 0 }", ("i",)),   # no values at all
]


def _range_outcome(ask):
    try:
        return ("ok", ask())
    except Exception as err:  # noqa: BLE001 - the same error either way
        return ("error", type(err), str(err))


def test_hardware_span_is_the_range_without_its_count():
    """`hardware_span` answers `hardware_range`'s base and bound, asked first or after it,
    and a count built later is the one built at once (`_hardware_range`, the answer before
    the count was made lazy, is compared with both); an empty domain raises alike."""
    import islpy as isl
    from translator.ir.isl_glue import codegen as glue_codegen
    from translator.ir.isl_glue import core
    compared = 0
    for text, inames in _RANGE_DOMAINS:
        for iname in inames:
            core._MEMO.clear()
            fresh = _range_outcome(lambda: glue_codegen._hardware_range(isl.BasicSet(text), iname))
            core._MEMO.clear()
            span = _range_outcome(lambda: glue_codegen.hardware_span(isl.BasicSet(text), iname))
            late = _range_outcome(lambda: glue_codegen.hardware_range(isl.BasicSet(text), iname))
            if fresh[0] == "ok":
                assert span == ("ok", (fresh[1][0], fresh[1][2])), (text, iname)
                compared += 1
            else:
                assert span == fresh, (text, iname)
            assert late == fresh, (text, iname)
    assert compared >= 9


def test_local_inames_make_no_count(monkeypatch):
    """The stencil's grid: the group inames' count is made, the local inames' (``min(16,
    n - 1)``, a minimum of two pieces) are not; the device code is the same."""
    from translator.ir.isl_glue import codegen as glue_codegen
    from translator.ir.isl_glue import core
    core._MEMO.clear()
    made: list = []
    original = glue_codegen.upper_expression

    def spy(pw):
        made.append(pw)
        return original(pw)
    monkeypatch.setattr(glue_codegen, "upper_expression", spy)
    text = _stencil_code("fb_local")
    # i_outer's and j_outer's (one answer: their domains are equal up to names)
    assert [str(pw) for pw in made] == ['[n] -> { [(floor((14 + n)/16))] : n >= 3 }']
    monkeypatch.undo()
    core._MEMO.clear()
    assert _stencil_code("fb_local") == text
