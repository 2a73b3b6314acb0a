"""Shortcuts of the API's first build, sixth round (issue 24): answers fixed by construction
(a split's inner iname says its own range) read without asking isl the general question.
Each shortcut must give exactly the general path's answer; these tests compare both and
fail where one differs, and check that the shortcut answers where it should."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import islpy as isl
import numpy as np
import pytest

import transforms
import translator
from translator.codegen import grid as grid_module
from translator.codegen import opencl
from translator.ir import parse_expr
from translator.ir.isl_glue import codegen as glue_codegen
from translator.ir.isl_glue import core
from translator.schedule import schedule_kernel

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import bench_loopy  # noqa: E402 - the benchmark's kernels


def _affine(rng: random.Random, params: list[str]) -> str:
    terms = [f"{rng.choice([-1, 1, 1, 2])}*{q}" for q in params if rng.random() < 0.7]
    return " + ".join([*terms, str(rng.randint(-5, 5))])


def _split_domain(rng: random.Random) -> str:
    """The projection onto a split's inner iname of a range whose bounds are affine in the
    parameters, sometimes with more parameter constraints or a stride."""
    params = rng.sample(["n", "m", "q"], rng.randint(0, 2))
    factor = rng.choice([1, 2, 3, 4, 8, 16, 32])
    low, high = _affine(rng, params), _affine(rng, params)
    extra = [f"{_affine(rng, params)} >= 0" for _ in range(rng.randint(0, 2)) if params]
    if rng.random() < 0.2:
        extra.append(f"exists (f: i_inner = {rng.choice([2, 3])}*f)")
    if rng.random() < 0.2:
        extra.append(f"i_inner <= {rng.randint(0, factor)}")
    if rng.random() < 0.2:
        extra.append(f"i_inner >= {rng.randint(-1, 3)}")
    body = " and ".join([f"0 <= i_inner <= {factor - 1}",
                         f"{low} <= i_inner + {factor}*e <= {high}", *extra])
    head = f"[{', '.join(params)}] -> " if params else ""
    return f"{head}{{ [i_inner] : exists (e : {body}) }}"


def _plain_domain(rng: random.Random) -> str:
    """One iname with constant, parametric, scaled and equality constraints."""
    params = rng.sample(["n", "m"], rng.randint(0, 2))
    parts = []
    for _ in range(rng.randint(1, 4)):
        coefficient = rng.choice([1, 1, -1, -1, 2, -3])
        parts.append(f"{coefficient}*i + {_affine(rng, params)} "
                     f"{rng.choice(['>=', '>=', '>=', '='])} 0")
    head = f"[{', '.join(params)}] -> " if params else ""
    return f"{head}{{ [i] : {' and '.join(parts)} }}"


def _general(text: str) -> tuple:
    core._MEMO.clear()
    domain = isl.BasicSet(text)
    iname = domain.get_dim_name(isl.dim_type.set, 0)
    try:
        entry = glue_codegen._hardware_choice(domain, iname)
    except Exception as err:  # noqa: BLE001 - compared as an outcome
        return ("error", type(err), str(err))
    return ("ok", (entry.base, entry.extent))


@pytest.mark.parametrize("maker", [_split_domain, _plain_domain])
def test_constant_span_is_the_general_answer(maker):
    """On 400 random domains of each kind: where `_constant_span` answers, its answer is
    `_hardware_choice`'s base and bound (same values, same types); `hardware_span` with and
    without the shortcut gives the same outcome (errors alike)."""
    rng = random.Random(88)
    answered = 0
    for _ in range(400):
        text = maker(rng)
        domain = isl.BasicSet(text)
        iname = domain.get_dim_name(isl.dim_type.set, 0)
        general = _general(text)
        found = glue_codegen._constant_span(isl.BasicSet(text), iname)
        if found is not None:
            answered += 1
            assert general == ("ok", found), text
            assert [type(v) for v in general[1]] == [type(v) for v in found], text
        core._MEMO.clear()
        try:
            outcome = ("ok", glue_codegen.hardware_span(isl.BasicSet(text), iname))
        except Exception as err:  # noqa: BLE001 - compared as an outcome
            outcome = ("error", type(err), str(err))
        assert outcome == general, text
    assert answered >= 20, answered   # the shortcut is exercised, not only refused


def test_constant_span_refuses_what_it_cannot_read():
    """A range not fixed by constraints of the iname alone, one whose ends are reached only
    for some parameter values (not a whole orthant), and several set dims: the general
    path answers."""
    refused = [
        "[n] -> { [i] : 0 <= i < n }",                                  # no constant bound
        "[n] -> { [i] : 0 <= i <= 15 and i <= 20 - n }",                # ends not reached
        "[n] -> { [i] : 0 <= i <= 15 and n = 4 }",                      # one value of n
        "[n, m] -> { [i] : 0 <= i <= 15 and i <= n - m }",              # not an orthant
        "[n] -> { [i] : 0 <= i <= 15 and exists (e : i = 2e) }",         # 15 is no value
        "[n] -> { [i, j] : 0 <= i <= 15 and 0 <= j <= 3 }",             # two set dims
    ]
    for text in refused:
        domain = isl.BasicSet(text)
        assert glue_codegen._constant_span(domain, domain.get_dim_name(isl.dim_type.set, 0)) \
            is None, text


def _code(build, name: str) -> str:
    lib = bench_loopy.ours()
    return lib.code(build(lib, name))


@pytest.mark.parametrize("build", [bench_loopy.stencil, bench_loopy.matmul,
                                   bench_loopy.saxpy])
def test_split_local_inames_ask_no_piecewise_range(build, monkeypatch):
    """The benchmark's local inames (inner inames of splits) are read from their own
    constraints: `_hardware_choice` runs for the group inames only; the device code is the
    one the general path gives."""
    asked: list[str] = []
    original = glue_codegen._hardware_choice

    def spy(domain, iname):
        asked.append(iname)
        return original(domain, iname)
    monkeypatch.setattr(glue_codegen, "_hardware_choice", spy)
    core._MEMO.clear()
    text = _code(build, "sixth_round")
    assert asked and all(iname.endswith("_outer") for iname in asked), asked
    monkeypatch.setattr(glue_codegen, "SPAN_SHORTCUT", False)
    core._MEMO.clear()
    assert _code(build, "sixth_round") == text


def test_alpha_answers_are_renamed_only_for_askers_by_other_names():
    """`alpha_memoized` hands its first asker the answer as computed (no renaming to
    positional names and back), and an asker by other names (swapped, shifted, new) the
    answer renamed once, equal to its own fresh answer: gists and loop bounds of split
    domains named in six ways, asked in every order of two."""
    base = ("[n] -> {{ [{a}, {b}, {c}] : 0 <= {b} <= 15 and 0 <= {b} + 16*{a} < n "
            "and 0 <= {c} < n and {c} <= {b} + 16*{a} }}")
    context = "[{a}, {b}, n] -> {{ [] : 0 <= {b} <= 15 and {a} >= 0 and n > 0 }}"
    namings = [("i_outer", "i_inner", "k"), ("k", "i_outer", "i_inner"), ("x", "y", "z"),
               ("i_inner", "k", "i_outer"), ("a", "b", "c"), ("n1", "n2", "n3")]
    renames: list[int] = []
    original = glue_codegen._renamed_conditions

    def spy(conds, names):
        renames.append(len(names))
        return original(conds, names)

    def asked(naming):
        names = dict(zip("abc", naming))
        domain = isl.BasicSet(base.format(**names))
        ctx = isl.Set(context.format(**names))
        gist = glue_codegen.gist_conditions(domain, ctx)
        bounds = glue_codegen.loop_bound_constraints(domain, naming[2], naming[:2], ctx)
        return [str(c) for c in gist], [[(a, str(e)) for a, e in side] for side in bounds]

    fresh = {}
    for naming in namings:
        core._MEMO.clear()
        fresh[naming] = asked(naming)
    glue_codegen._renamed_conditions = spy
    try:
        for first in namings:
            for second in namings:
                core._MEMO.clear()
                renames.clear()
                assert asked(first) == fresh[first]
                assert renames == []          # computed, not renamed there and back
                assert asked(second) == fresh[second], (first, second)
                assert len(renames) == (first != second)
    finally:
        glue_codegen._renamed_conditions = original


def _grid_kernels():
    """Kernels whose group counts are clamped at zero, and some that are not: splits of
    ranges with parametric ends, a triangle, two loops on one axis, assumptions, chunks,
    a reduction, an ilp inner iname."""
    f32 = np.float32

    def arrays(*names, shape="n"):
        return [translator.GlobalArg(v, f32, shape=shape) for v in names] + ["..."]
    out = []
    knl = translator.make_kernel("{[i]: 3<=i<n-2}", "y[i] = 2*x[i]", arrays("x", "y"),
                                 name="offset")
    out.append(transforms.split_iname(knl, "i", 32, outer_tag="g.0", inner_tag="l.0"))
    knl = translator.make_kernel("{[i,j]: 0<=i<n and 0<=j<=i}", "a[i,j] = 2*a[i,j]",
                                 arrays("a", shape="n,n"), name="triangle")
    knl = transforms.split_iname(knl, "i", 8, outer_tag="g.0", inner_tag="l.0")
    out.append(transforms.split_iname(knl, "j", 4, outer_tag="g.1"))
    knl = translator.make_kernel("{[i,k]: 0<=i<n and 0<=k<m}",
                                 ["x[i] = 1 {id=a}", "z[k] = 2 {id=b}"],
                                 arrays("x", "z", shape=None), name="shared_axis")
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    out.append(transforms.split_iname(knl, "k", 16, outer_tag="g.0", inner_tag="l.0"))
    knl = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = x[i] + 1", arrays("x", "y"),
                                 name="assumed", assumptions="n >= 1")
    out.append(transforms.split_iname(knl, "i", 64, outer_tag="g.0", inner_tag="l.0"))
    knl = translator.make_kernel("{[i,j]: 0<=i<n and 0<=j<n}", "s[i] = sum(j, a[i,j])",
                                 [translator.GlobalArg("a", f32, shape="n,n"),
                                  translator.GlobalArg("s", f32, shape="n"), "..."],
                                 name="rowsum")
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    out.append(transforms.split_iname(knl, "j", 4, inner_tag="ilp"))
    knl = translator.make_kernel("{[i]: 0<=i<100}", "y[i] = x[i]", arrays("x", "y", shape=100),
                                 name="constant")
    out.append(transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0"))
    lib = bench_loopy.ours()
    out += [build(lib, "k_" + build.__name__.replace(" ", "_"))
            for build in (bench_loopy.stencil, bench_loopy.matmul, bench_loopy.saxpy,
                          bench_loopy.many(3))]
    return out


def test_unclamped_grid_conditions_make_the_same_context_and_code(monkeypatch):
    """`Grid.conditions` without the clamp: the root context is the same set as with it
    (isl's equality), and every kernel's generated code (device code, sizes, parameters)
    is the one the clamped conditions give."""
    kernels = _grid_kernels()
    unclamped = 0
    for knl in kernels:
        prepared = opencl.prepare_kernel(knl)
        schedule = schedule_kernel(prepared)
        grid = grid_module.compute_grid(prepared, schedule.hardware)
        sets = []
        for flag in (True, False):
            monkeypatch.setattr(grid_module, "UNCLAMPED_CONDITIONS", flag)
            core._MEMO.clear()
            sets.append(glue_codegen._context_set(grid.conditions(), prepared.assumptions))
        unclamped += any(grid_module._clamped(g) for g in grid.groups)
        assert sets[0].is_equal(sets[1]), knl.name
    assert unclamped >= 5
    codes = []
    for flag in (True, False):
        monkeypatch.setattr(grid_module, "UNCLAMPED_CONDITIONS", flag)
        core._MEMO.clear()
        opencl._SHAPES.clear()
        codes.append([translator.generate_code(knl) for knl in kernels])
    assert codes[0] == codes[1]


def test_a_computed_context_is_not_renamed_back(monkeypatch):
    """The asker that computes a context takes the set it computed (one renaming: the copy
    kept with positional names; no renaming back), an asker by other names the kept copy
    renamed to its names; both equal fresh contexts, names in a fresh context's order."""
    renamings: list[int] = []
    original = glue_codegen._rename_params

    def spy(s, names):
        renamings.append("to" if any(v.startswith(core.ALPHA) for v in names.values())
                         else "from")
        return original(s, names)
    monkeypatch.setattr(glue_codegen, "_rename_params", spy)
    core._MEMO.clear()
    # (names sorted alike against ``n``: the same positions, found in the memo; then a swap,
    # another question)
    for names, renamed in ((("i", "j"), ["to"]), (("a", "b"), ["from"]), (("k", "m"), ["from"]),
                           (("j", "i"), ["to"])):
        i, j, n = (parse_expr.parse_expression(v) for v in (*names, "n"))
        conditions = (core.p.Comparison(i, ">=", 0), core.p.Comparison(i, "<", n),
                      core.p.Comparison(j, "<=", core.p.Sum((i, 3))))
        renamings.clear()
        found = glue_codegen.context_set(conditions)
        fresh = glue_codegen._context_set(conditions, None)
        assert found.is_equal(fresh)
        assert found.get_var_names(isl.dim_type.param) == \
            fresh.get_var_names(isl.dim_type.param)
        assert renamings == renamed, names
