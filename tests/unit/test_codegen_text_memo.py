"""Code generation remembers pure answers across kernels (issue 24: the many small kernels of a
file, and a kernel built again through the API, ask the same isl questions of new set objects
and print the same guards).  Remembered answers must equal fresh ones: a translation after
others in one process (the translation server's case) writes what it writes alone."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import transforms
import translator
from translator.codegen import emit, opencl
from translator.diagnostics import KernelLanguageError
from translator.ir import parse, parse_expr
from translator.ir.isl_glue import codegen as glue_codegen
from translator.ir.isl_glue import core as glue_core
from translator.ir.isl_glue import versioning as glue_versioning

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _forget() -> None:
    """Empty every process-wide memo of code generation and the API's parsers."""
    glue_core._MEMO.clear()
    emit.PLAIN_TEXTS.clear()
    parse_expr._PARSED.clear()
    parse._DOMAINS.clear()
    opencl._SHAPES.clear()


def _matmul(name: str):
    knl = translator.make_kernel(
        "{[i,j,k]: 0<=i,j,k<n}", "c[i,j] = sum(k, a[i,k]*b[k,j])",
        [translator.GlobalArg(v, np.float32, shape="n,n") for v in "abc"] + ["..."], name=name)
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.1", inner_tag="l.1")
    return transforms.split_iname(knl, "j", 16, outer_tag="g.0", inner_tag="l.0")


def _counted(monkeypatch, module, name: str) -> list[int]:
    calls = [0]
    real = getattr(module, name)

    def counting(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)
    monkeypatch.setattr(module, name, counting)
    return calls


def test_a_kernel_built_again_asks_isl_nothing_again(monkeypatch):
    _forget()
    counts = {name: _counted(monkeypatch, module, name) for module, name in (
        (glue_codegen, "_gist_conditions"), (glue_codegen, "_loop_bound_constraints"),
        # (no `_entries`: the speculation test proves matmul's without isl, h69)
        (glue_versioning, "_relaxed_domain"), (glue_core, "_is_nonnegative"))}
    first = translator.generate_code(_matmul("first")).device_code
    asked = {name: c[0] for name, c in counts.items()}
    assert all(asked.values()), asked   # the matmul asks each of them
    second = translator.generate_code(_matmul("second")).device_code
    again = {name: c[0] - asked[name] for name, c in counts.items()}
    # (a context or two of the second build is built from remembered sets and prints
    # differently from the first build's, equal as a set: asked once more)
    assert sum(again.values()) <= sum(asked.values()) // 2, (asked, again)
    before_third = {name: c[0] for name, c in counts.items()}
    third = translator.generate_code(_matmul("third")).device_code
    assert {name: c[0] for name, c in counts.items()} == before_third
    assert second == first.replace("first", "second")
    assert third == first.replace("first", "third")


def test_remembered_answers_equal_fresh_ones():
    _forget()
    warm = translator.generate_code(_matmul("mm")).device_code
    again = translator.generate_code(_matmul("mm")).device_code
    _forget()
    fresh = translator.generate_code(_matmul("mm")).device_code
    assert warm == again == fresh


def _triangle(name: str):
    knl = translator.make_kernel(
        "{[i,j,k]: 0<=i,j,k<n and i <= j}", "c[i,j] = sum(k, a[i,k]*b[k,j])",
        [translator.GlobalArg(v, np.float32, shape="n,n") for v in "abc"] + ["..."], name=name)
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.1", inner_tag="l.1")
    return transforms.split_iname(knl, "j", 16, outer_tag="g.0", inner_tag="l.0")


def test_sets_that_print_differently_are_asked_apart():
    """A kernel of the same shape on another domain gets its own answers, not the memo's."""
    _forget()
    triangle_alone = translator.generate_code(_triangle("mm")).device_code
    _forget()
    square = translator.generate_code(_matmul("mm")).device_code
    triangle = translator.generate_code(_triangle("mm")).device_code
    assert triangle == triangle_alone != square


def _named_matmul(name: str, i: str, j: str, k: str):
    """`_matmul` with inames `i`, `j`, `k` (as a file's many loops are named ``i_1``, ...)."""
    knl = translator.make_kernel(
        f"{{[{i},{j},{k}]: 0<={i},{j},{k}<n}}", f"c[{i},{j}] = sum({k}, a[{i},{k}]*b[{k},{j}])",
        [translator.GlobalArg(v, np.float32, shape="n,n") for v in "abc"] + ["..."], name=name)
    knl = transforms.split_iname(knl, i, 16, outer_tag="g.1", inner_tag="l.1")
    return transforms.split_iname(knl, j, 16, outer_tag="g.0", inner_tag="l.0")


@pytest.mark.parametrize("names, asks", [
    (("i_2", "j_2", "k_2"), 0), (("e", "f", "g"), 0),
    # (names that sort otherwise against the parameter ``n`` give contexts whose
    # parameters lie in another order: a question or two of their own; swapped roles)
    (("j", "k", "i"), None), (("p", "q", "r"), None)])
def test_kernels_differing_in_iname_names_share_isl_answers(monkeypatch, names, asks):
    """A kernel whose inames are named otherwise asks isl no guard or loop bound again (the
    answers are remembered up to names, `alpha_memoized`), and its code equals the code a
    fresh process prints for it: the answers are renamed back to its own names, also where
    the names swap places (``j`` where the first kernel had ``i``)."""
    _forget()
    fresh = translator.generate_code(_named_matmul("mm", *names)).device_code
    _forget()
    # (a second build asks a question or two of its own: see above)
    for warm in (("i", "j", "k"), ("i_1", "j_1", "k_1")):
        translator.generate_code(_named_matmul("mm", *warm))
    counts = {name: _counted(monkeypatch, glue_codegen, name)
              for name in ("_gist_conditions", "_loop_bound_constraints")}
    renamed = translator.generate_code(_named_matmul("mm", *names)).device_code
    if asks is not None:
        assert {name: c[0] for name, c in counts.items()} == {
            "_gist_conditions": asks, "_loop_bound_constraints": asks}
    assert renamed == fresh


def test_alpha_memoized_keeps_apart_sets_that_differ_beyond_names():
    """Sets equal up to names share an answer; a set that differs otherwise (a bound, or the
    order of its dims) gets its own, and names isl could take for its own are not renamed."""
    _forget()
    asked = []

    def ask(text: str, extra=()):
        s = glue_core.isl.BasicSet(text)

        def compute():
            asked.append(text)
            return tuple(s.get_var_names(glue_core.dim_type.set))
        return glue_core.alpha_memoized(
            "test", (s,), extra, compute,
            lambda names, m: tuple(m.get(n, n) for n in names))
    assert ask("[n] -> { [i, j] : 0 <= i < n and 0 <= j < 4 }") == ("i", "j")
    assert ask("[m] -> { [p, q] : 0 <= p < m and 0 <= q < 4 }") == ("p", "q")
    assert len(asked) == 1
    assert ask("[n] -> { [j, i] : 0 <= i < n and 0 <= j < 4 }") == ("j", "i")
    assert ask("[n] -> { [i, j] : 0 <= i < n and 0 <= j < 5 }") == ("i", "j")
    assert ask("[n] -> { [i, j] : 0 <= i < n and 0 <= j < 4 }", ("j",)) == ("i", "j")
    assert len(asked) == 4
    assert ask("[n] -> { [i0, j] : 0 <= i0 < n and 0 <= j < 4 }") == ("i0", "j")
    assert len(asked) == 5


def test_contexts_remembered_up_to_names_equal_fresh_ones():
    """`context_set` answers conditions on other names from the memo (`_alpha_context`),
    with the asker's names in the order a fresh computation gives them, and keeps apart a
    name that is kept (an assumption's) from a renamed one."""
    _forget()
    i, j, n = (parse_expr.parse_expression(v) for v in "ijn")
    assumptions = glue_core.isl.BasicSet("[n] -> { [] : n > 0 }")

    def conds(v):
        return (glue_core.p.Comparison(v, "<", n), glue_core.p.Comparison(v, ">=", 0))
    for v, ass in ((i, None), (j, None), (i, assumptions), (j, assumptions), (n, None)):
        remembered = glue_codegen.context_set(conds(v), ass)
        fresh = glue_codegen._context_set(conds(v), ass)
        assert remembered.get_var_names(glue_core.dim_type.param) == \
            fresh.get_var_names(glue_core.dim_type.param)
        assert remembered == fresh


def _guarded(name: str, dtype, length: int = 128):
    knl = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = 2*x[i]",
                                 [translator.GlobalArg("x", dtype, shape="n"),
                                  translator.GlobalArg("y", dtype, shape="n"), "..."],
                                 name=name)
    return transforms.split_iname(knl, "i", length, outer_tag="g.0", inner_tag="l.0")


def test_plain_texts_shared_across_kernels_keep_what_each_needs(monkeypatch):
    """The guard and subscripts of a float64 kernel come from the memo for a second kernel;
    the fp64 pragma each kernel needs is its own (decided by its statement, not the memo)."""
    _forget()
    renders = _counted(monkeypatch, emit.DevicePrinter, "_plain_entry")
    first = translator.generate_code(_guarded("k1", np.float64))
    size = len(emit.PLAIN_TEXTS)
    assert size >= 2 and renders[0] >= 2   # the guard and the flat subscript
    single = translator.generate_code(_guarded("k2", np.float32))
    again = translator.generate_code(_guarded("k3", np.float64))
    assert len(emit.PLAIN_TEXTS) == size   # nothing new to print: same guard, same subscript
    assert first.uses_fp64 and again.uses_fp64 and not single.uses_fp64
    assert again.device_code == first.device_code.replace("k1", "k3")
    assert "i_inner + 128 * i_outer < n" in single.device_code


def _guarded_on(name: str, iname: str, dtype=np.float64):
    knl = translator.make_kernel(f"{{[{iname}]: 0<={iname}<n}}", f"y[{iname}] = 2*x[{iname}]",
                                 [translator.GlobalArg("x", dtype, shape="n"),
                                  translator.GlobalArg("y", dtype, shape="n"), "..."],
                                 name=name)
    return transforms.split_iname(knl, iname, 128, outer_tag="g.0", inner_tag="l.0")


@pytest.mark.parametrize("iname", ["i_7", "long", "n1", "a"])
def test_plain_texts_are_shared_across_iname_names(iname):
    """A kernel on an iname named otherwise prints its guard and subscripts from the texts
    remembered up to names (nothing new to print), spelled with its own names: what a fresh
    process prints, also for a name that C reserves (printed ``_tr_long``) or that sorts
    otherwise against the parameter ``n``."""
    _forget()
    fresh = translator.generate_code(_guarded_on("k", iname)).device_code
    _forget()
    translator.generate_code(_guarded_on("k", "i"))
    templates = {k for k in emit.PLAIN_TEXTS if k[0] == "~"}
    assert templates
    again = translator.generate_code(_guarded_on("k", iname)).device_code
    assert again == fresh
    if iname != "n1":   # (``n1_inner`` sorts after ``n``: a key of its own)
        assert {k for k in emit.PLAIN_TEXTS if k[0] == "~"} == templates


def test_plain_templates_cut_at_variables_only():
    assert emit._plain_template("(long) L + 10L * n", ["L", "n"]) == (
        "(long) ", 0, " + 10L * ", 1, "")
    assert emit._plain_template("(int) _tr_int + int_1", ["int", "int_1"]) == (
        "(int) ", 0, " + ", 1, "")
    assert emit._plain_template("_tr_int + 1", ["int", "_tr_int"]) is None


def test_parsed_expressions_are_shared_and_errors_are_not_remembered():
    _forget()
    a = parse_expr.parse_expression("a[i] + 2*b[i, j]")
    assert parse_expr.parse_expression("a[i] + 2*b[i, j]") is a
    # the inames decide what max(i, ...) is: they are part of the key
    reduction = parse_expr.parse_expression("max(i, a[i])", ["i"])
    call = parse_expr.parse_expression("max(i, a[i])")
    assert reduction != call
    for _ in range(2):
        with pytest.raises(KernelLanguageError, match="malformed expression 'a\\[i'"):
            parse_expr.parse_expression("a[i")
    assert "a[i" not in {key[0] for key in parse_expr._PARSED}


def test_parsed_domains_are_shared_and_errors_are_not_remembered():
    _forget()
    knl1 = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = 1", name="d1")
    knl2 = translator.make_kernel("{[i]: 0<=i<n}", "y[i] = 2", name="d2")
    assert knl1.domains[0] is knl2.domains[0]
    for _ in range(2):
        with pytest.raises(translator.TranslatorError, match="malformed domain"):
            translator.make_kernel("{[i]: 0<=i<n and}", "y[i] = 1")
    assert len(parse._DOMAINS) == 1


_SERVER_LIKE = """
import sys, os
from translator.build.job import translate_file
for src, out in zip(sys.argv[1::2], sys.argv[2::2]):
    translate_file(src, out)
"""


def _run(pairs: list[tuple[str, str]]) -> None:
    env = {**os.environ, "TRANSLATE_SERVER": "0", "PYTHONPATH": ROOT}
    args = [a for pair in pairs for a in pair]
    subprocess.run([sys.executable, "-c", _SERVER_LIKE, *args], check=True, env=env,
                   cwd=ROOT)


def _files(out: str) -> dict[str, bytes]:
    found = {}
    for name in sorted(os.listdir(out)):
        with open(os.path.join(out, name), "rb") as f:
            found[name] = f.read()
    return found


@pytest.mark.parametrize("first, second", [
    ("samples/fortran/matmul.f90", "samples/fortran/two_matmul.f90"),
    ("samples/fortran/jacobi2d.f90", "samples/fortran/heat_steps.f90"),
    ("samples/c/gemm.c", "samples/c/matmul_tiled.c"),
    ("samples/c/fdtd2d.c", "samples/c/multi_region.c"),
])
def test_a_file_after_others_translates_as_alone(tmp_path, first, second):
    """One process translating `first` then `second` (as the translation server does) writes
    for `second` exactly what a process translating it alone writes."""
    for path in (first, second):
        if not os.path.exists(os.path.join(ROOT, path)):
            pytest.skip(f"{path} is not a sample")
    alone, after, warm = (str(tmp_path / d) for d in ("alone", "after", "warm"))
    _run([(second, alone)])
    _run([(first, warm), (second, after)])
    assert _files(after) == _files(alone)
