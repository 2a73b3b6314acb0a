"""Python shortcuts of the first build of a kernel shape (issue 24): walks and keys that
replace a general pymbolic mapper for the common nodes.  Each must give exactly the general
path's answer (the general path runs where a shortcut does not know a node); these tests
compare both on hand-picked and random expressions and fail where a shortcut differs."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pymbolic.primitives as p
import pytest

from translator.ir import expr as ir_expr
from translator.ir.expr import (
    LinearSubscript, Reduction, TaggedVariable, TypeCast, dependencies,
)
from translator.ir.parse_expr import parse_expression

V = [p.Variable(n) for n in ("i", "j", "k", "n", "a", "b", "x_1")]


def _leaf(rng: random.Random):
    return rng.choice([*V, *V, rng.randint(-9, 9), 2.5, np.float32(0.5), np.int64(3), True,
                       1j, TaggedVariable("a", "t")])


def _random_expr(rng: random.Random, depth: int = 0):
    if depth > 3 or rng.random() < 0.25:
        return _leaf(rng)

    def sub():
        return _random_expr(rng, depth + 1)

    kind = rng.randrange(16)
    if kind == 0:
        return p.Sum(tuple(sub() for _ in range(rng.randint(2, 4))))
    if kind == 1:
        return p.Product(tuple(sub() for _ in range(rng.randint(2, 3))))
    if kind == 2:
        index = sub() if rng.random() < 0.4 else tuple(sub() for _ in range(rng.randint(1, 3)))
        return p.Subscript(rng.choice(V), index)
    if kind == 3:
        return p.Comparison(sub(), rng.choice(["<", "<=", "==", "!=", ">", ">="]), sub())
    if kind == 4:
        return rng.choice([p.Quotient, p.FloorDiv, p.Remainder, p.Power])(sub(), sub())
    if kind == 5:
        return p.Call(rng.choice([p.Variable("sqrt"), p.Variable("i"), p.Variable("max")]),
                      tuple(sub() for _ in range(rng.randint(1, 3))))
    if kind == 6:
        return TypeCast(np.dtype(np.float32), sub())
    if kind == 7:
        return LinearSubscript(rng.choice(V), sub())
    if kind == 8:
        return rng.choice([p.LogicalAnd, p.LogicalOr, p.Min, p.Max])(
            tuple(sub() for _ in range(rng.randint(2, 3))))
    if kind == 9:
        return p.LogicalNot(sub())
    if kind == 10:
        return p.If(sub(), sub(), sub())
    if kind == 11:
        inames = tuple(rng.sample(["i", "j", "k"], rng.randint(1, 2)))
        return Reduction(rng.choice(["sum", "max"]), inames, sub())
    if kind == 12:
        return p.CommonSubexpression(sub())
    if kind == 13:
        return p.BitwiseAnd((sub(), sub()))
    if kind == 14:
        return tuple(sub() for _ in range(rng.randint(1, 3)))
    return p.Sum((sub(), p.Product((-1, sub()))))


def _mapper_names(expr) -> frozenset[str]:
    """`dependencies` through the general mapper only."""
    return frozenset(v.name for v in ir_expr._Dependencies()(expr))


def _fresh_dependencies(expr) -> frozenset[str]:
    ir_expr._DEPENDENCIES.clear()
    return dependencies(expr)


@pytest.fixture
def no_mapper(monkeypatch):
    """`_Dependencies` refused: the shortcut must answer alone."""
    def refuse():
        raise AssertionError("the general dependency mapper ran")
    monkeypatch.setattr(ir_expr, "_Dependencies", refuse)


def test_dependencies_of_random_expressions_equal_the_mappers():
    """3,000 random expressions over every node the walk knows and some it does not
    (tagged variables, common subexpressions, bitwise operators): the same names."""
    rng = random.Random(79)
    for _ in range(3000):
        expr = _random_expr(rng)
        assert _fresh_dependencies(expr) == _mapper_names(expr), expr


@pytest.mark.parametrize("text", [
    "u[i - 1, j] + u[i + 1, j] - 4*u[i, j]", "sum(k, a[i, k]*b[k, j])", "i < n and j >= 2*n",
    "sqrt(x[i]) / (n // 3) + n % 4", "max(k, a[k, j]) + k", "a[[16*i + j]]", "if(i < n, a[i], 0)",
    "cast(float64, a[i])", "x**2 - float32(0.5)", "sum([i, k], a[i, k]) * i",
])
def test_dependencies_of_kernel_language_texts(text):
    expr = parse_expression(text, frozenset({"i", "j", "k"}))
    assert _fresh_dependencies(expr) == _mapper_names(expr)


@pytest.mark.parametrize(("text", "names"), [
    ("u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - 4*u[i, j]", "u i j"),
    ("sum(k, a[i, k]*b[k, j])", "a b i j"),
    ("16*i_outer + i_inner <= n - 1 and j >= 0", "i_outer i_inner n j"),
    ("sqrt(x[i]) / (n // 3) + n % 4", "x i n"), ("cast(float64, a[[16*i + j]])", "a i j"),
])
def test_common_expressions_need_no_mapper(no_mapper, text, names):
    """The expressions a first build asks about (subscripts, sums, guards, reductions,
    calls, casts) are answered by the walk: no mapper is built for them."""
    expr = parse_expression(text, frozenset({"i", "j", "k"}))
    assert _fresh_dependencies(expr) == frozenset(names.split())


def test_unknown_leaves_fail_as_the_mapper_fails():
    """A leaf no mapper knows (a string) raises the mapper's error, through the mapper."""
    for expr in (p.Sum((p.Variable("i"), "oops")), p.Subscript(p.Variable("a"), (None,))):
        with pytest.raises(ValueError) as general:
            _mapper_names(expr)
        with pytest.raises(ValueError) as fast:
            _fresh_dependencies(expr)
        assert str(fast.value) == str(general.value)


# -- typed_key of the commonest nodes -------------------------------------------------------

def _general_key(expr, rename=None):
    """`typed_key` through `_node_key` for every node (no written-out classes)."""
    saved = dict(ir_expr._FAST_NODES)
    ir_expr._FAST_NODES.clear()
    ir_expr._NODE_KEYS.clear()
    try:
        return ir_expr.typed_key(expr, rename)
    finally:
        ir_expr._FAST_NODES.update(saved)
        ir_expr._NODE_KEYS.clear()


def test_typed_keys_of_random_expressions_equal_the_general_path():
    """With and without renaming, from an empty identity memo and from a full one (the
    subexpressions keyed first): the same key as `_node_key` gives every node."""
    rng = random.Random(24)
    renames = [None, {}, {"i": "_tr_a0", "n": "_tr_a1"}, {"a": "0", "x_1": "1", "k": "2"}]
    compared = 0
    for _ in range(1500):
        expr = _random_expr(rng)
        for rename in renames:
            try:
                general = _general_key(expr, rename)
            except TypeError:
                with pytest.raises(TypeError):
                    ir_expr.typed_key(expr, rename)
                continue
            ir_expr._NODE_KEYS.clear()
            assert ir_expr.typed_key(expr, rename) == general, (expr, rename)
            assert ir_expr.typed_key(expr, rename) == general, (expr, rename)   # memo hit
            compared += 1
    assert compared > 4000


def test_typed_key_keeps_the_identity_memo_of_subexpressions():
    """Keying a statement keys its subscripts by identity on the way, as before."""
    ir_expr._NODE_KEYS.clear()
    expr = parse_expression("u[i - 1, j] + 4*u[i, j] < n", frozenset({"i", "j"}))
    key = ir_expr.typed_key(expr)
    sub = expr.left.children[0]
    assert ir_expr._NODE_KEYS[id(sub)] == (sub, _general_key(sub))
    assert key == _general_key(expr)


def test_common_nodes_are_keyed_without_the_general_node_key(monkeypatch):
    def refuse(expr, rename):
        raise AssertionError(f"_node_key ran for {type(expr).__name__}")
    monkeypatch.setattr(ir_expr, "_node_key", refuse)
    ir_expr._NODE_KEYS.clear()
    for text in ("u[i - 1, j] + u[i + 1, j] - 4*u[i, j]", "16*i_outer + i_inner <= n - 1",
                 "(n + 15) // 16 + n % 4 + a[i] / 2"):
        expr = parse_expression(text, frozenset({"i", "j"}))
        ir_expr.typed_key(expr)
        ir_expr.typed_key(expr, {"i": "0", "n": "1"})


# -- integer texts printed directly ---------------------------------------------------------

def _oracle_printer():
    """A device printer over a kernel with integer variables of several types (i, j inames,
    n int32, m int64, w uint32), a float one (x) and one in the printer's environment (e)."""
    from translator import GlobalArg, ValueArg, make_kernel
    from translator.codegen.emit import DevicePrinter
    from translator.ir.types import TypeOracle
    knl = make_kernel("{[i, j]: 0 <= i < n and 0 <= j < m}", "out[i, j] = x + w + e",
                      [ValueArg("n", np.int32), ValueArg("m", np.int64),
                       ValueArg("w", np.uint32), ValueArg("x", np.float32),
                       ValueArg("e", np.int32), GlobalArg("out", np.float32, shape="n, m")],
                      name="ints")
    oracle = TypeOracle(knl)
    printer = DevicePrinter(oracle, flat_index=None, is_nonnegative=lambda e: True,
                            env={"e": p.Variable("i") + 1}, helpers=set())
    printer.weak_of = lambda e: oracle.typed(e).weak
    return printer


_INTS = [p.Variable(n) for n in ("i", "j", "n", "m", "w")]


def _random_int_expr(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice([*_INTS, *_INTS, rng.randint(-20, 20), -1, 0, 1, 2**40, -2**35,
                           np.int64(rng.randint(-5, 5)), np.int32(-1), np.uint32(7),
                           p.Variable("x"), p.Variable("e")])

    def sub():
        return _random_int_expr(rng, depth + 1)

    if roll < 0.55:
        children = [sub() for _ in range(rng.randint(2, 4))]
        if rng.random() < 0.3:
            children[1] = p.Product((rng.choice([-1, -3, np.int64(-2)]), sub()))
        return p.Sum(tuple(children))
    if roll < 0.8:
        first = rng.choice([-1, np.int64(-1), -4, sub()])
        return p.Product((first, *[sub() for _ in range(rng.randint(1, 3))]))
    if roll < 0.93:
        return TypeCast(np.dtype(rng.choice([np.int64, np.int32, np.uint32, np.float32])),
                        sub())
    return p.Product((sub(), p.Sum((sub(), sub()))))


def test_integer_texts_equal_the_printers():
    """Random sums, products and casts of integer variables and constants (negated terms,
    ``-1 *`` factors, numpy constants, longs), alone and compared, at every precedence:
    `integer_text` prints what the printer prints, or declines (a float variable, a float
    cast, a variable of the environment), and never needs fp64."""
    from translator.codegen.emit import integer_text
    printer = _oracle_printer()
    rng = random.Random(7)
    printed = declined = 0
    for _ in range(3000):
        expr = _random_int_expr(rng)
        if rng.random() < 0.3:
            expr = p.Comparison(expr, rng.choice(["<", "<=", "==", "!=", ">", ">="]),
                                _random_int_expr(rng, 2))
        prec = rng.choice([0, 10, 12, 13, 14])
        fast = integer_text(printer, expr, prec)
        printer.uses_fp64 = False
        general = printer.rec(expr, prec)
        if fast is None:
            declined += 1
            continue
        assert fast == general, expr
        assert not printer.uses_fp64
        printed += 1
    assert printed > 1000 and declined > 300


def test_subscripts_and_guards_print_without_the_general_printer(monkeypatch):
    """A stencil's subscripts, guard and the flat indices (integer texts) print without
    the mapper's sums and products: only the float sum of the right-hand side reaches them."""
    import bench.bench_loopy as bench
    from translator.codegen import cexpr, emit

    general: list = []
    for name in ("map_sum", "map_product"):
        original = getattr(cexpr.CExpressionPrinter, name)

        def spy(self, expr, prec=0, original=original):
            general.append(expr)
            return original(self, expr, prec)
        monkeypatch.setattr(cexpr.CExpressionPrinter, name, spy)
    lib = bench.ours()
    emit.PLAIN_TEXTS.clear()
    text = lib.code(bench.stencil(lib, "integer_texts"))
    assert "i_inner + 16 * i_outer >= 1" in text
    assert general and all(isinstance(d, p.Subscript) or "[" in str(d) for d in general), general


# -- replace --------------------------------------------------------------------------------

def _outcome(build):
    try:
        return "ok", build()
    except (TypeError, ValueError) as err:
        return "error", type(err), str(err)


def test_replace_equals_dataclasses_replace():
    """Kernels, statements and arguments (classes `translator.records.dataclass` builds),
    stdlib dataclasses with an InitVar, a field out of ``__init__`` and a default factory,
    and objects that are no dataclass: the same object or the same error."""
    from translator import GlobalArg, make_kernel
    from translator.records import replace

    knl = make_kernel("{[i]: 0 <= i < n}", "y[i] = 2*x[i] {id=s}",
                      [GlobalArg("x", np.float32, shape="n"),
                       GlobalArg("y", np.float32, shape="n"), "..."], name="rep")
    stmt = knl.statements[0]

    @dataclasses.dataclass(frozen=True)
    class WithInitVar:
        a: int
        scale: dataclasses.InitVar[int] = 1
        b: int = 0

        def __post_init__(self, scale):
            object.__setattr__(self, "b", self.b * scale)

    @dataclasses.dataclass
    class OutOfInit:
        a: int
        b: list = dataclasses.field(default_factory=list)
        c: int = dataclasses.field(default=5, init=False)

    cases = [
        (knl, {"name": "other"}), (knl, {}), (knl, {"nonsense": 1}),
        (stmt, {"id": "t", "within_inames": frozenset({"i"})}), (stmt, {}),
        (knl.args[0], {"name": "z"}), (WithInitVar(2, 3, 4), {"a": 5}),
        (WithInitVar(2, 3, 4), {"a": 5, "scale": 2}), (OutOfInit(1), {"a": 2}),
        (OutOfInit(1), {"c": 2}), (3, {}), ("text", {"a": 1}),
    ]
    for obj, changes in cases:
        ours = _outcome(lambda obj=obj, changes=changes: replace(obj, **changes))
        theirs = _outcome(lambda obj=obj, changes=changes: dataclasses.replace(obj, **changes))
        assert ours == theirs, (obj, changes)


# -- walks ----------------------------------------------------------------------------------

class _Recorder(ir_expr.IRWalkMapper):
    def __init__(self):
        self.seen = []

    def visit(self, expr, *args, **kwargs):
        self.seen.append(expr)
        return True


def _mapper_walk(expr):
    """The nodes `IRWalkMapper` visits, or the error it raises."""
    recorder = _Recorder()
    try:
        recorder(expr)
    except Exception as err:  # noqa: BLE001 - compared with the fallback's
        return "error", type(err)
    return recorder.seen


def test_walked_nodes_equal_the_mappers():
    """On 3,000 random expressions: the same nodes, the same objects, in the same order;
    None exactly where the walk meets a node it leaves to the mapper."""
    rng = random.Random(11)
    walked = 0
    for _ in range(3000):
        expr = _random_expr(rng)
        nodes = ir_expr.walk_nodes(expr)
        if nodes is None:
            continue
        seen = _mapper_walk(expr)
        assert len(nodes) == len(seen) and all(a is b for a, b in zip(nodes, seen)), expr
        walked += 1
    assert walked > 1000


def test_reductions_and_nodes_of_equal_the_mappers():
    from translator.ir import mappers
    rng = random.Random(12)
    for _ in range(2000):
        exprs = [_random_expr(rng) for _ in range(rng.randint(1, 3))]
        general = mappers._ReductionWalk()
        for expr in exprs:
            general(expr)
        assert mappers.reductions_in(exprs) == general.found
        for cls in (Reduction, p.Subscript, p.Variable, tuple):
            walker = mappers._NodesOf(cls)
            walker(exprs[0])
            assert mappers.nodes_of(exprs[0], cls) == walker.found


def test_common_statements_walk_without_the_mapper(monkeypatch):
    """The reductions and index names of a matmul and a stencil are found without a
    mapper walk, and the default integer types come out as before."""
    from translator import GlobalArg, ValueArg, make_kernel
    from translator.ir import mappers

    def refuse(self, expr, *args, **kwargs):
        raise AssertionError("a walk mapper ran")
    monkeypatch.setattr(ir_expr.IRWalkMapper, "__call__", refuse)
    expr = parse_expression("sum(k, a[i, k]*b[k, j]) + c[[16*i + j]]", frozenset({"i", "j", "k"}))
    assert [r.inames for r in mappers.reductions_in([expr])] == [("k",)]
    knl = make_kernel("{[i]: 0 <= i < n}", "y[i + m] = 2*x[i]",
                      [ValueArg("n"), ValueArg("m"), GlobalArg("x", np.float32, shape="n"),
                       GlobalArg("y", np.float32, shape="n + m")], name="walks")
    from translator.ir.types import infer_unknown_types
    typed = infer_unknown_types(knl)
    assert {a.name: a.dtype for a in typed.value_args} == {"n": np.int32, "m": np.int32}


# -- substitution (transforms.common.Rewriter) ----------------------------------------------

def _rewrite_outcome(rewrite, expr):
    try:
        result = rewrite(expr)
    except AssertionError as err:   # pymbolic's rec_arith refusing a non-arithmetic part
        return "error", type(err)
    return "ok", ir_expr.typed_key(result), result is expr


def test_rewriter_equals_the_identity_mapper():
    """Random expressions under random substitutions (sums, a comparison where a sum
    needs an operand, names bound, reductions renamed or not): the same result, node
    classes and constant types included, and the same object where nothing changed."""
    from pymbolic.mapper import Mapper

    from transforms.common import Rewriter
    rng = random.Random(5)
    values = [p.Variable("i_inner") + 16 * p.Variable("i_outer"), p.Variable("q"), 3,
              np.int64(2), p.Comparison(p.Variable("i"), "<", 2), (p.Variable("t"), 1)]
    renamed = 0
    for _ in range(2500):
        subst = {n: rng.choice(values) for n in rng.sample(["i", "j", "k", "n", "a"], 2)}
        bound = frozenset(rng.sample(["i", "k", "x_1"], rng.randint(0, 1)))
        inames = None if rng.random() < 0.5 else (lambda red: tuple(f"{n}_new" for n in
                                                                      red.inames))
        rewriter = Rewriter(subst, reduction_inames=inames, bound=bound)
        expr = _random_expr(rng)
        fast = _rewrite_outcome(rewriter, expr)
        general = _rewrite_outcome(lambda e, r=rewriter: Mapper.__call__(r, e), expr)
        assert fast == general, (expr, subst, bound)
        renamed += fast[0] == "ok" and not fast[2]
    assert renamed > 800


def test_rewriter_rebuilds_common_statements_itself(monkeypatch):
    """A stencil's right-hand side under split_iname's substitution is rebuilt without the
    mapper's methods."""
    from pymbolic.mapper import IdentityMapper

    from transforms.common import Rewriter

    def refuse(self, expr, *args, **kwargs):
        raise AssertionError("the identity mapper rebuilt a sum")
    monkeypatch.setattr(IdentityMapper, "map_sum", refuse)
    expr = parse_expression("u[i - 1, j] + u[i + 1, j] - 4*u[i, j] + cast(float32, n // 2)",
                            frozenset({"i", "j"}))
    new = Rewriter({"i": p.Variable("i_inner") + 16 * p.Variable("i_outer")})(expr)
    assert "i_outer" in str(new) and "i_outer" not in str(expr)
