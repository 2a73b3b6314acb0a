"""Shortcuts that answer an isl question without the general path (issue 24: the first build
of a kernel shape through the API).  Each must give exactly the isl path's answer, down to
the representation that later questions and printed guards depend on: these tests compare
both on a range of inputs (parametric, triangular, floor divisions, max/min, names joining
late, constants beyond a machine word) and fail where a shortcut differs."""

from __future__ import annotations

import random

import islpy as isl
import numpy as np
import pymbolic.primitives as p
import pytest

from translator.diagnostics import DomainError
from translator.ir.isl_glue import codegen as glue_codegen
from translator.ir.isl_glue import core as glue_core
from translator.ir.isl_glue import versioning as glue_versioning
from translator.ir.parse import parse_domains
from translator.ir.parse_expr import parse_expression

I, J, N, M = (p.Variable(x) for x in ("i", "j", "n", "m"))
I_OUTER, I_INNER, J_OUTER, J_INNER, K = (
    p.Variable(x) for x in ("i_outer", "i_inner", "j_outer", "j_inner", "k"))


def _space(sets=("i", "j"), params=("n", "m")) -> isl.Space:
    return isl.Space.create_from_names(isl.DEFAULT_CONTEXT, set=list(sets), params=list(params))


def _general_aff(space: isl.Space, expr) -> isl.PwAff:
    """`aff_from_expr` through the general path (sums and products of PwAffs)."""
    to_aff = glue_core._ToAff(space)
    linear = glue_core._linear_form
    try:
        glue_core._linear_form = lambda e: None
        return to_aff(expr)
    finally:
        glue_core._linear_form = linear


def _random_linear(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice([I, J, N, M, rng.randint(-40, 40), np.int64(rng.randint(-9, 9))])
    if roll < 0.65:
        return p.Sum(tuple(_random_linear(rng, depth + 1) for _ in range(rng.randint(2, 4))))
    factors = [rng.randint(-7, 7), _random_linear(rng, depth + 1)]
    if rng.random() < 0.3:
        factors.append(rng.randint(-3, 3))
    rng.shuffle(factors)
    return p.Product(tuple(factors))


def _same_pwaff(a: isl.PwAff, b: isl.PwAff) -> bool:
    return a.plain_is_equal(b) and str(a) == str(b)


def test_linear_affine_forms_equal_the_general_path():
    """Sums and products of integers and variables (set dims and parameters), numpy
    integers, cancelling terms, zero factors: one Aff equal to the sum of PwAffs, and the
    sets made from it equal too."""
    rng = random.Random(24)
    space = _space()
    seen_linear = 0
    for _ in range(600):
        expr = _random_linear(rng)
        seen_linear += glue_core._linear_form(expr) is not None
        fast = glue_core.aff_from_expr(space, expr)
        general = _general_aff(space, expr)
        assert _same_pwaff(fast, general), expr
        zero = glue_core.aff_from_expr(space, 0)
        assert str(fast.ge_set(zero)) == str(general.ge_set(zero)), expr
    assert seen_linear > 300


@pytest.mark.parametrize("text", [
    "16*i_outer + i_inner + 1", "(-1)*i + (-16)*j + n + -1", "2*(i + 3*(n - j)) - 5",
    "i - i + n", "0*j + 7", "3", "n*2*3 - i", "-(i + 1)",
    "(n + 15) // 16 - i", "max((n + 15) // 16, 0) + -1", "min(n, m) - i", "n % 4 + i",
    "i + 4611686018427387904", "4611686018427387903*i - n", "1099511627776*(1099511627776*i) + n",
    "i + 40000000000000000000", "40000000000000000000*i - n",
])
def test_expressions_with_and_without_a_linear_form(text):
    """Expressions the shortcut takes and those it leaves to the general path (floor
    division, max, min, remainder inside: their linear parts go through the shortcut),
    constants beyond a machine word included."""
    expr = parse_expression(text)
    for space in (_space(("i", "j", "i_outer", "i_inner"), ("n", "m")),
                  _space((), ("i", "j", "i_inner", "i_outer", "m", "n"))):
        fast = _outcome(lambda space=space: glue_core.aff_from_expr(space, expr))
        assert fast == _outcome(lambda space=space: _general_aff(space, expr))
        assert fast[0] == "ok" or "40000000000000000000" in text   # (isl refuses those)


def _outcome(build) -> tuple:
    """What `build()` gives: the PwAff's text, or the error it raises."""
    try:
        pwaff = build()
    except (DomainError, isl.Error) as err:
        return "error", type(err), str(err)
    return "ok", str(pwaff), pwaff.get_pieces()[0][1].to_str()


@pytest.mark.parametrize("text", ["i + q", "q - q + i", "i*j + 1", "n*(i + 1)", "i*i"])
def test_bad_expressions_fail_as_the_general_path_does(text):
    """Unknown names (even cancelled out) and products of two non-constant factors: the
    same DomainError with the same message."""
    expr = parse_expression(text)
    space = _space()
    with pytest.raises(DomainError) as general:
        _general_aff(space, expr)
    with pytest.raises(DomainError) as fast:
        glue_core.aff_from_expr(space, expr)
    assert str(fast.value) == str(general.value)


# -- contexts built from a remembered prefix ------------------------------------------------

_HARDWARE = ["i_inner >= 0", "i_inner <= 15", "i_outer >= 0",
             "i_outer <= max((n + 15) // 16, 0) + -1", "j_inner >= 0", "j_inner <= 15",
             "j_outer >= 0", "j_outer <= max((n + 15) // 16, 0) + -1"]

_NESTS = [
    # matmul's three contexts: the hardware bounds, the guard, then the k loop (a new name)
    (_HARDWARE, ["(-1)*i_inner + (-16)*i_outer + n + -1 >= 0",
                 "(-1)*j_inner + (-16)*j_outer + n + -1 >= 0"], ["k >= 0", "k <= n + -1"]),
    # triangular and parametric, names sorting before and after the prefix's, equalities
    (["i >= 0", "i <= n - 1"], ["j >= 0", "j <= i"], ["a == i + j", "z >= 2*j - m"]),
    (["t >= 1", "t < m"], ["i >= t", "i <= n // 3 + t"], ["b <= min(i, m - 1)", "c != 2"]),
    # conditions that give no set (dropped) and a conjunction
    (["i >= 0", "x[i] > 0"], ["i <= n and n <= 100"], ["i % 2 == 0", "j <= i*i"]),
    # an empty context, then more
    (["n >= 5", "n <= 2"], ["i >= 0"], ["k == 2*n"]),
]


def _conditions(texts) -> tuple:
    return tuple(parse_expression(t) for t in texts)


def _joined(levels) -> list[str]:
    return [text for level in levels for text in level]


def _fresh_context(conditions: tuple) -> isl.Set:
    """`_context_set` with nothing remembered."""
    glue_core._MEMO.clear()
    return glue_codegen._context_set(conditions, None)


@pytest.mark.parametrize("nest", range(len(_NESTS)))
def test_contexts_from_a_prefix_equal_fresh_ones(nest, monkeypatch):
    """Nested contexts (each its parent's conditions and more, as code generation asks
    them), built from the parent's remembered set: the same set, printed and compared plain,
    as built from nothing; and the parent's conditions are not converted again."""
    levels = _NESTS[nest]
    fresh = []
    for k in range(1, len(levels) + 1):
        fresh.append(_fresh_context(_conditions(_joined(levels[:k]))))
    glue_core._MEMO.clear()
    built = [0]
    depth = [0]
    real = glue_codegen._condition_set

    def counting(space, cond):   # (conditions, not the parts of a conjunction)
        built[0] += depth[0] == 0
        depth[0] += 1
        try:
            return real(space, cond)
        finally:
            depth[0] -= 1
    monkeypatch.setattr(glue_codegen, "_condition_set", counting)
    conditions: tuple = ()
    for k, level in enumerate(levels):
        conditions += _conditions(level)
        before = built[0]
        reused = glue_codegen._context_set(conditions, None)
        # (a plain comparison and a gist rewrite a set in place, as code generation's
        # questions do: the remembered prefix must not change with it)
        assert str(reused) == str(fresh[k]) and reused.plain_is_equal(fresh[k]), k
        reused.gist(fresh[0].align_params(reused.get_space()))
        assert built[0] - before == len(level)   # only the new conditions


def test_random_nested_contexts_equal_fresh_ones():
    """Random nests of affine conditions over names that join at every level."""
    rng = random.Random(7)
    names = ["a", "b", "i", "j", "k", "n", "m", "z"]

    def condition() -> str:
        left = " + ".join(f"{rng.randint(-3, 3)}*{rng.choice(names)}"
                          for _ in range(rng.randint(1, 3)))
        right = rng.choice(["0", "n", "n - 1", "(m + 7) // 8", "max(n, 0)", "2*m"])
        return f"{left} {rng.choice(['>=', '<=', '<', '>', '=='])} {right}"
    for _ in range(40):
        levels = [[condition() for _ in range(rng.randint(1, 3))] for _ in range(4)]
        fresh = [_fresh_context(_conditions(_joined(levels[:k])))
                 for k in range(1, len(levels) + 1)]
        glue_core._MEMO.clear()
        conditions: tuple = ()
        for k, level in enumerate(levels):
            conditions += _conditions(level)
            reused = glue_codegen._context_set(conditions, None)
            assert str(reused) == str(fresh[k]) and reused.plain_is_equal(fresh[k]), levels
            reused.gist(fresh[0].align_params(reused.get_space()))


# -- the speculation test's entries, intersected once ----------------------------------------

def _entries_one_by_one(points, exprs, names, drop) -> isl.Set:
    """The speculation test's `entries` as first written: one parameter and one equality
    at a time (each intersection simplifies every piece of the set again)."""
    s = glue_core._all_to_params(points)
    for name, expr in zip(names, exprs):
        k = s.dim(glue_core.dim_type.param)
        s = s.add_dims(glue_core.dim_type.param, 1).set_dim_name(
            glue_core.dim_type.param, k, name)
        if expr is None:
            continue
        space = s.get_space()
        s = s.intersect(glue_core.aff_from_expr(space, p.Variable(name)).eq_set(
            glue_core.aff_from_expr(space, expr)))
    return glue_versioning.keep_params(
        s, [n for n in s.get_var_names(glue_core.dim_type.param) if n not in drop])


_POINTS = [
    ("[n] -> { [i_outer, i_inner, j_outer, j_inner, k] : i_outer >= 0 and 0 <= i_inner <= 15 "
     "and i_inner < n - 16i_outer and j_outer >= 0 and 0 <= j_inner <= 15 "
     "and j_inner < n - 16j_outer and 0 <= k < n }"),
    ("[n] -> { [i_outer, i_inner, j_outer, j_inner, k] : 0 <= i_inner <= 15 and 0 <= j_inner "
     "<= 15 and 0 <= k < n and ((n > 0 and i_inner >= n - 16i_outer and j_outer >= 0) or "
     "(i_outer >= 0 and i_inner < n - 16i_outer and j_outer >= 0 and j_inner >= n - 16j_outer)) }"),
    ("[n, m] -> { [i_outer, i_inner, j_outer, j_inner, k] : 0 <= i_inner <= 15 and "
     "0 <= j_inner <= 15 and i_outer >= 0 and j_outer >= 0 and "
     "16j_outer + j_inner <= 16i_outer + i_inner < n and 0 <= k < m }"),   # syrk's triangle
    ("[n] -> { [i_outer, i_inner, j_outer, j_inner, k] : 0 <= i_inner <= 3 and "
     "4i_outer + i_inner = 2k and 0 <= k < n and j_outer = 0 and j_inner = 0 }"),
    "[n] -> { [i_outer, i_inner, j_outer, j_inner, k] : n < 0 and 0 <= k < n }",   # empty
]


@pytest.mark.parametrize("points", range(len(_POINTS)))
def test_entries_equal_the_one_by_one_construction(points):
    """The same set of entries (work item ids, subscripts; None: any id), and so the same
    disjointness answers, for rectangular, split, triangular, strided and empty domains."""
    s = isl.Set(_POINTS[points])
    names = ["_tr_axis_g_0", "_tr_axis_g_1", "_tr_axis_l_0", "_tr_axis_l_1", "_tr_entry0"]
    drop = {"i_outer", "i_inner", "j_outer", "j_inner", "k"}
    choices = [
        [J_OUTER, I_OUTER, J_INNER, I_INNER, K],
        [J_OUTER, I_OUTER, None, I_INNER, parse_expression("k // 2 + i_inner")],
        [None, None, None, None, parse_expression("max(k, 3)")],
        [J_OUTER, I_OUTER, J_INNER, I_INNER, parse_expression("2*k - n + 1")],
    ]
    found = []
    for exprs in choices:
        new = glue_versioning._entries(s, exprs, names, drop)
        old = _entries_one_by_one(s, exprs, names, drop)
        assert new.get_space() == old.get_space() and new.is_equal(old), exprs
        found.append(new)
    for a in found:
        for b in found:
            assert glue_versioning._disjoint(a, b) == glue_versioning._disjoint(
                *(_entries_one_by_one(s, exprs, names, drop)
                  for exprs in (choices[found.index(a)], choices[found.index(b)])))


# -- full writes refuted by a corner ---------------------------------------------------------

_COVERS = [
    # (domains with the subscripts written there, shape, assumptions)
    ([("{[i,j]: 0<=i<n and 0<=j<n}", "i,j")], "n,n", None),                 # covers
    ([("{[i,j]: 1<=i<n-1 and 1<=j<n-1}", "i,j")], "n,n", None),             # the stencil
    ([("{[i,j]: 1<=i<n-1 and 1<=j<n-1}", "i-1,j-1")], "n-2,n-2", None),     # covers
    ([("{[i]: 0<=i<n-1}", "i")], "n", None),                                # last one missing
    ([("{[i]: 0<=i<n}", "2*i"), ("{[i]: 0<=i<n}", "2*i+1")], "2*n", None),  # two together
    ([("{[i]: 0<=i<n}", "2*i")], "2*n", None),                              # every other one
    ([("{[i,j]: 0<=i<n and 0<=j<=i}", "i,j")], "n,n", None),                # a triangle
    ([("{[i]: 0<=i<m}", "i")], "n", None),                                  # another size
    ([("{[i]: 0<=i<m}", "i")], "n", "{[]: m >= n}"),                        # enough of it
    ([("{[i]: 0<=i<m}", "i")], "n", "{[]: m = 5 and n <= m}"),              # no witness
    ([("{[i]: 0<=i<n}", "i + k")], "n", None),                              # shifted by k
    ([("{[i]: 0<=i<n}", "i*i")], "n", None),                                # not affine
    ([("{[i]: 0<=i<n}", "i,0")], "n", None),                                # wrong rank
    ([("{[i]: 0<=i<n}", "i // 2")], "(n + 1) // 2", None),
    ([("{[i]: 0<=i<n and n <= 10}", "i")], "n", None),                      # small n only
]


def _cover_case(case):
    from translator.ir.parse import parse_domains
    writes, shape, assumptions = case
    accesses = []
    for domain, indices in writes:
        (dom,) = parse_domains([domain])
        accesses.append((dom, tuple(parse_expression(f"({indices},)") if "," in indices
                                    else (parse_expression(indices),))))
    shape = tuple(parse_expression(e) for e in shape.split(","))
    ass = None if assumptions is None else glue_core.parse_domain(assumptions)
    return accesses, shape, ass


@pytest.mark.parametrize("case", range(len(_COVERS)))
def test_cover_answers_equal_the_full_test(case, monkeypatch):
    """The corner refutation never changes `writes_cover_box`'s answer, and where a corner
    of the box is left unwritten (the stencil), the footprints are not projected."""
    accesses, shape, assumptions = _cover_case(_COVERS[case])
    answer = glue_codegen._writes_cover_box(accesses, shape, assumptions)
    monkeypatch.setattr(glue_codegen, "_uncovered_corner", lambda *args: False)
    full = glue_codegen._writes_cover_box(accesses, shape, assumptions)
    assert answer == full
    monkeypatch.undo()
    images = [0]
    real = glue_codegen._footprint

    def counting(*args):
        images[0] += 1
        return real(*args)
    monkeypatch.setattr(glue_codegen, "_footprint", counting)
    monkeypatch.setattr(glue_codegen, "TILES_SHORTCUT", False)   # (its own test below)
    glue_codegen._writes_cover_box(accesses, shape, assumptions)
    if case in (1, 3, 5):   # a corner left unwritten: decided without the footprints
        assert images[0] == 0 and full is False
    elif case in (0, 2, 4, 6, 7, 8, 9, 10):
        assert images[0] > 0   # the corners are written (or no witness): the full test


@pytest.mark.parametrize("shape, unwritten", [("max(1, n)", False), ("max(n - 1, n)", False),
                                              ("max(1, n) + 1", True), ("f(n)", None)])
def test_cover_of_a_shape_with_calls_equals_the_full_test(shape, unwritten, monkeypatch):
    """A footprint-sized extent (``max(1, n)`` of a Fortran ``c(1)`` dummy indexed to n): the
    corner test evaluates ``max``/``min`` and gives up on a call it does not know, answering
    as the full test (before: an internal error, "UnknownVariableError: max")."""
    (dom,) = parse_domains(["{[i]: 0<=i<n}"])
    accesses = [(dom, (parse_expression("i"),))]
    extent = (parse_expression(shape),)
    if unwritten is not None:
        assert glue_codegen._uncovered_corner(accesses, extent, None) is unwritten
    answer = glue_codegen._writes_cover_box(accesses, extent, None)
    monkeypatch.setattr(glue_codegen, "_uncovered_corner", lambda *args: False)
    assert answer == glue_codegen._writes_cover_box(accesses, extent, None)


# -- the speculation test: entries proved disjoint without isl --------------------------------

def _api_kernel(case: int):
    """Kernels with private accumulators (scalar or a register block), on one or several
    domains, rectangular, parametric, triangular or strided, tiled with exact or guarded
    tails."""
    import transforms as tf
    import translator
    arg = translator.GlobalArg
    mats = [arg(v, np.float32, shape="n,n") for v in "abc"] + ["..."]
    if case == 0:    # matmul on 16x16 tiles
        knl = translator.make_kernel("{[i,j,k]: 0<=i<n and 0<=j<n and 0<=k<n}",
                                     "c[i,j] = sum(k, a[i,k]*b[k,j])", mats)
    elif case == 1:  # syrk's triangle
        knl = translator.make_kernel("{[i,j,k]: 0<=j<=i<n and 0<=k<n}",
                                     "c[i,j] = sum(k, a[i,k]*a[j,k])", mats)
    elif case == 2:  # a forest: the summed loop's bounds depend on i (two domains)
        knl = translator.make_kernel(["{[i,j]: 0<=i<n and 0<=j<n}", "{[k]: 0<=k<=i}"],
                                     "c[i,j] = sum(k, a[i,k]*b[k,j])", mats)
    elif case == 3:  # offsets and a strided sum
        knl = translator.make_kernel("{[i,j,k]: 2<=i<n-1 and 1<=j<n and 0<=k<n and k % 2 = 0}",
                                     "c[i,j] = sum(k, a[i,k]*b[k,j])", mats)
    elif case == 4:  # one axis only: the rows, a sum over each
        knl = translator.make_kernel("{[i,k]: 0<=i<n and 0<=k<n}",
                                     "c[i,0] = sum(k, a[i,k])", mats)
    elif case == 6:  # stored by one work item of each column: entries that meet
        knl = translator.make_kernel(
            "{[i,j]: 0<=i<n and 0<=j<n-1}",
            ["<float32> acc = 0 {id=init, inames=i:j}",
             "acc = acc + a[i,j] {id=upd, dep=init, inames=i:j}",
             "c[i,0] = acc {id=st, dep=upd, inames=i}"], mats)
        knl = tf.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
        return tf.split_iname(knl, "j", 8, outer_tag="g.1", inner_tag="l.1")
    else:            # exact tiles: n a multiple of 16 (assumptions)
        knl = translator.make_kernel("{[i,j,k]: 0<=i<16*m and 0<=j<16*m and 0<=k<n}",
                                     "c[i,j] = sum(k, a[i,k]*b[k,j])",
                                     [arg(v, np.float32, shape="16*m,16*m") for v in "abc"]
                                     + ["..."])
    knl = tf.split_iname(knl, "i", 16, outer_tag="g.1", inner_tag="l.1")
    if case != 4:
        knl = tf.split_iname(knl, "j", 16, outer_tag="g.0", inner_tag="l.0")
    return knl


@pytest.mark.parametrize("case", range(7))
def test_speculation_shortcut_answers_as_the_entries(case, monkeypatch):
    """`speculative_domain` with the entries it proves disjoint skipped gives the relaxed
    domain (or None) the full test gives, statement by statement, and the same device code;
    matmul's accumulator initialisation asks no `entries` at all."""
    import translator
    from translator.codegen import emit, opencl, speculation
    from translator.ir.shape_memo import KernelMemo
    answers: dict[bool, list] = {}
    codes: dict[bool, str] = {}
    asked: dict[bool, int] = {}
    real, real_entries = speculation.speculative_domain, glue_versioning.entries
    for shortcut in (False, True):
        seen: list = []
        calls = [0]

        def recording(emitter, stmt, seen=seen):
            found = real(emitter, stmt)
            seen.append((stmt.id, None if found is None else str(found)))
            return found

        def counting(*args, calls=calls):
            calls[0] += 1
            return real_entries(*args)
        monkeypatch.setattr(speculation, "SHORTCUT", shortcut)
        monkeypatch.setattr(emit, "speculative_domain", recording)
        monkeypatch.setattr(speculation.glue, "entries", counting)
        monkeypatch.setattr(opencl, "_SHAPES", KernelMemo())   # generated afresh
        glue_core._MEMO.clear()
        codes[shortcut] = translator.generate_code(_api_kernel(case)).device_code
        answers[shortcut], asked[shortcut] = seen, calls[0]
        monkeypatch.undo()
    assert answers[True] == answers[False] and codes[True] == codes[False]
    assert any(found is not None for _, found in answers[True]) or case in (3, 6)
    if case == 0:
        assert asked[False] > 0 and asked[True] == 0


# -- full-tile versioning refused from the schedule ------------------------------------------

def _versioning_kernel(case: int):
    """`_api_kernel`'s kernels, then loops whose trip count a full tile makes constant (the
    summed loop split by 16, prefetched tiles, an unrolled block), where versioning pays."""
    import transforms as tf
    import translator
    if case < 7:
        return _api_kernel(case)
    if case == 7:    # three updates in the sequential loop of a 16x16 tile: versioned
        insns = [f"u{s}[i, j, k] = u{s}[i, j, k] + {s}.0 * u{s + 1}[i, j, k]" for s in range(3)]
        args = [translator.GlobalArg(f"u{a}", np.float64, shape="n,n,n") for a in range(4)]
        knl = translator.make_kernel("{[i,j,k]: 0<=i,j,k<n}", insns, [*args, "..."])
        knl = tf.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
        return tf.split_iname(knl, "j", 16, outer_tag="g.1", inner_tag="l.1")
    if case == 11:   # one update in two loops of constant trip counts: their boxes count
        knl = translator.make_kernel(
            "{[i,k,l]: 0<=i<n and 0<=k<m and 0<=l<m}", "c[i,k] = c[i,k] + a[i,l]",
            [translator.GlobalArg(v, np.float32, shape="n,m") for v in "ac"] + ["..."])
        knl = tf.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
        return tf.split_iname(tf.split_iname(knl, "k", 16), "l", 4)
    knl = _api_kernel(0 if case != 9 else 1)
    knl = tf.split_iname(knl, "k", 16)
    if case == 8:
        outer = "i_outer,j_outer,k_outer"
        knl = tf.add_prefetch(knl, "a", ["k_inner", "i_inner"], default_tag="l.auto",
                              fetch_outer_inames=outer)
        knl = tf.add_prefetch(knl, "b", ["j_inner", "k_inner"], default_tag="l.auto",
                              fetch_outer_inames=outer)
    elif case == 10:
        knl = tf.tag_inames(knl, "k_inner:unr")
    return knl


@pytest.mark.parametrize("case", range(12))
def test_versioning_refused_from_the_schedule_as_by_the_probe(case, monkeypatch):
    """`full_tile_tests` answers the same (refusal, or the same tests and set) with and
    without `cannot_pay`, region by region, and the device code is the same; the gate
    refuses matmul's kernel body without the probe."""
    import translator
    from translator.codegen import opencl, versioning
    from translator.ir.shape_memo import KernelMemo
    answers: dict[bool, list] = {}
    codes: dict[bool, str] = {}
    probes: dict[bool, int] = {}
    real_tests, real_probe = versioning.VersioningEmitter.full_tile_tests, versioning._Probe
    for shortcut in (False, True):
        seen: list = []
        made = [0]

        def recording(self, *args, seen=seen):
            found = real_tests(self, *args)
            seen.append(None if found is None else (found[0], str(found[1])))
            return found

        def probe(parent, made=made):
            made[0] += 1
            return real_probe(parent)
        monkeypatch.setattr(versioning, "SHORTCUT", shortcut)
        monkeypatch.setattr(versioning.VersioningEmitter, "full_tile_tests", recording)
        monkeypatch.setattr(versioning, "_Probe", probe)
        monkeypatch.setattr(opencl, "_SHAPES", KernelMemo())   # generated afresh
        glue_core._MEMO.clear()
        codes[shortcut] = translator.generate_code(_versioning_kernel(case)).device_code
        answers[shortcut], probes[shortcut] = seen, made[0]
        monkeypatch.undo()
    assert answers[True] == answers[False] and codes[True] == codes[False]
    if case == 0:
        assert probes[False] > 0 and probes[True] == 0
    if case in (7, 11):
        assert "full tile" in codes[True] and probes[True] > 0


# -- full writes of tiles read from the domain's text ----------------------------------------

def _tile_case(rng: random.Random):
    """A write of one statement over a box of rank 1 or 2 split into tiles (or not), with
    the box's extents, or a variation that may leave elements unwritten (an offset, another
    extent, a constraint more, a triangle, a stride)."""
    from translator.ir.isl_glue import dims
    rank = rng.choice([1, 2])
    names = ["i", "j"][:rank]
    extents = [rng.choice(["n", "n - 1", "n + 3", "16*m", "2*m + 1", "96", "100", "m"])
               for _ in names]
    extra = rng.choice(["", "", "", " and n >= 5", " and j <= i", " and i % 2 = 0",
                        " and m >= 1"])
    if rank == 1 and "j" in extra:
        extra = ""
    lower = rng.choice([0, 0, 0, 1])
    conds = " and ".join(f"{lower} <= {v} < {e}" for v, e in zip(names, extents))
    (dom,) = parse_domains([f"{{[{', '.join(names)}]: {conds}{extra}}}"])
    indices = []
    for v in names:
        tile = rng.choice([0, 2, 16, 16, 32])
        if tile:
            dom = dims.split_dim(dom, v, f"{v}_outer", f"{v}_inner", tile)
            index = parse_expression(f"{v}_inner + {tile}*{v}_outer")
        else:
            index = p.Variable(v)
        if rng.random() < 0.15:
            index = p.Sum((index, rng.choice([1, -1])))
        indices.append(index)
    shape = [parse_expression(e) for e in extents]
    if rng.random() < 0.15:
        shape[0] = p.Sum((shape[0], 1))
    return [(dom, tuple(indices))], tuple(shape)


def test_tiles_cover_as_the_full_test(monkeypatch):
    """`_tiles_cover`'s yes never differs from the projection's answer, over 300 random
    tilings and variations (and the `_COVERS` cases); it says yes for most exact covers."""
    rng = random.Random(69)
    cases = [_tile_case(rng) for _ in range(300)]
    cases += [_cover_case(c)[:2] for c in _COVERS]
    said = covered = 0
    for accesses, shape in cases:
        quick = glue_codegen._tiles_cover(accesses, shape)
        monkeypatch.setattr(glue_codegen, "TILES_SHORTCUT", False)
        full = glue_codegen._writes_cover_box(accesses, shape, None)
        monkeypatch.undo()
        assert not quick or full, (str(accesses[0][0]), accesses[0][1], shape)
        assert glue_codegen._writes_cover_box(accesses, shape, None) == full
        said += quick
        covered += full
    assert said >= 0.8 * covered and said > 50, (said, covered)


@pytest.mark.parametrize("text", [
    "[n] -> { [i_outer, i_inner] : i_outer >= 0 and 0 <= i_inner <= 15 and i_inner < n - 16i_outer }",
    "{ [i] : 0 <= i <= 9 }", "[n, m] -> { [i] }", "[n] -> { [i] : n >= -15 and i = 2n }",
])
def test_plain_constraints_read_back_the_set(text):
    """The constraints read from isl's text make the same set again."""
    inames, params, constraints = glue_codegen._plain_constraints(text)
    parts = []
    for terms, constant, equality in constraints:
        expr = " + ".join([f"{c}*{n}" for n, c in terms] + [str(constant)])
        parts.append(f"{expr} {'=' if equality else '>='} 0")
    body = " and ".join(parts) if parts else "true"
    again = isl.Set(f"[{', '.join(params)}] -> {{ [{', '.join(inames)}] : {body} }}")
    assert again.is_equal(isl.Set(text))


@pytest.mark.parametrize("text", [
    "[n] -> { [i] : exists (e0 = floor((i)/2): 2e0 = i) }", "[n] -> { [i] : i < n or i > 2n }",
    "[n] -> { [i] : 0 <= i < floor((n)/2) }", "[n] -> { S[i] : 0 <= i < n }",
])
def test_plain_constraints_leave_other_sets(text):
    assert glue_codegen._plain_constraints(text) is None


# -- trip counts without a constant bound read from the domain's text ------------------------

_EXTENT_DOMAINS = [
    "{[i,j,k]: 0<=i<n and 0<=j<n and 0<=k<n}",
    "{[i,k]: 0<=i<n and 0<=k<=i}",                     # triangular: k's count grows with i
    "{[i,k]: 0<=i<n and i<=k<i+4}",                    # four values whatever n
    "{[i,k]: 0<=i<n and 0<=k<m}",
    "{[i,k]: 0<=i<n and 0<=k<m and m<=10}",           # m bounded by the domain
    "{[i,k]: 0<=i<n and n-3<=k<n}",                    # three values
    "{[i,k]: 0<=i<n and 0<=k<n and k=2*i}",            # an equality
    "{[i,k]: 0<=i<n and 0<=k<n and k%2=0}",            # a stride (a division)
    "{[i,k]: 0<=i<n and 0<=k<n and n<0}",              # empty
    "{[i,k]: 0<=i<n and 0<=k<=15 and k<n-16*i}",       # a tile with a tail
    "{[i,k]: 0<=i<n and 0<=k<8}",
    "{[i,k]: 0<=i<n and -n<=k<=n}",
    "{[i,k]: 0<=i<n and k>=0 and k<=n and k<=7}",      # min(n, 7): bounded
    "{[i,k]: 0<=i<n and k>=n and k<=2*n}",             # the lower bound moves up with n
    "{[i,k]: 0<=i<n and k>=i and k<=i+m and m>=0}",
]


@pytest.mark.parametrize("text", _EXTENT_DOMAINS)
def test_unbounded_trip_counts_as_isl_finds(text, monkeypatch):
    """`_trips_grow_with_params` says yes only where isl's bound is None, for every iname
    and every choice of fixed inames, and `constant_extent_bound` answers as without it."""
    from translator.ir.isl_glue import dims
    (dom,) = parse_domains([text])
    domains = [dom, dims.split_dim(dom, "i", "i_outer", "i_inner", 16)]
    for d in domains:
        names = list(glue_core.inames_of(d))
        for iname in names:
            others = [n for n in names if n != iname]
            quick = glue_core._trips_grow_with_params(d, iname)
            for outer in (None, [], others, others[:1]):
                answer = glue_core._constant_extent_bound(d, iname, outer)
                monkeypatch.setattr(glue_core, "EXTENT_SHORTCUT", False)
                full = glue_core._constant_extent_bound(d, iname, outer)
                monkeypatch.undo()
                assert answer == full, (str(d), iname, outer)
                assert not quick or full is None, (str(d), iname, outer)


# -- a box inside a domain, read from the texts ----------------------------------------------

def _random_box(rng: random.Random) -> isl.Set:
    """A box over the names of `test_box_inside_as_isl_finds`' domains: small ranges of the
    tile inames, sizes from some value on (or up to another), a name fixed, a coefficient,
    a name left free; often inside a domain, often not."""
    names = {"i_inner": 16, "j_inner": 4, "i_outer": 4, "j_outer": 6, "n": 120, "m": 12}
    parts = []
    for name, top in names.items():
        roll = rng.random()
        low = rng.randint(-1, top) if rng.random() < 0.2 else rng.randint(0, top // 2)
        if roll < 0.1:
            continue    # free
        if roll < 0.2:
            parts.append(f"{name} = {low}")
        elif roll < 0.3:
            parts.append(f"{rng.choice([2, 3])}*{name} >= {low}")
        elif roll < 0.55 and name in ("n", "m"):
            parts.append(f"{name} >= {low + 60}")
        else:
            parts.append(f"{low} <= {name} <= {low + rng.randint(0, top // 2)}")
    return isl.Set(f"[{', '.join(names)}] -> {{ [] : {' and '.join(parts) or 'true'} }}")


def test_box_inside_as_isl_finds():
    """`box_inside` answers as isl's difference (empty or not) on 400 random boxes against
    split, triangular, offset and strided domains and their relaxations; None only where a
    text is not plain."""
    from translator.ir.isl_glue import dims
    rng = random.Random(169)
    domains = []
    for text in ["{[i,j]: 0<=i<n and 0<=j<n}", "{[i,j]: 1<=i<n-1 and 0<=j<=i}",
                 "{[i,j]: 0<=i<n and 0<=j<m and i % 2 = 0}", "{[i,j]: 0<=i<16*m and 0<=j<100}",
                 "{[i,j]: 0<=i<n and j = 3}"]:
        (dom,) = parse_domains([text])
        dom = dims.split_dim(dims.split_dim(dom, "i", "i_outer", "i_inner", 16),
                             "j", "j_outer", "j_inner", 4)
        domains.append(dom)
        domains.append(glue_versioning._relaxed_domain(dom, ()))
    answers = {True: 0, False: 0, None: 0}
    for _ in range(400):
        box, dom = _random_box(rng), rng.choice(domains)
        quick = glue_versioning.box_inside(box, dom)
        full = glue_versioning._disjoint(*(glue_versioning._difference(box, dom),) * 2)
        answers[quick] += 1
        assert quick is None or quick == full, (str(box), str(dom))
    assert answers[True] > 40 and answers[False] > 150, answers
    # matmul's accumulator initialisation: its relaxed domain is not inside its own
    (mm,) = parse_domains(["{[i,j]: 0<=i<n and 0<=j<n}"])
    mm = dims.split_dim(dims.split_dim(mm, "i", "i_outer", "i_inner", 16),
                        "j", "j_outer", "j_inner", 16)
    assert glue_versioning.box_inside(glue_versioning._relaxed_domain(mm, ()), mm) is False
