"""The answers remembered for large regions (many loops that differ in their names only) are
the answers computed afresh: hardware ranges, conflicts and footprints up to iname names,
dependencies per expression, accesses per kernel, proved kernels, sub-kernels by index."""

from __future__ import annotations

import islpy as isl
import pymbolic.primitives as p
import pytest

import transforms
import translator
from translator.analysis import access, legality
from translator.diagnostics import LegalityError
from translator.ir import expr as ir_expr
from translator.ir.isl_glue import core
from translator.ir.isl_glue.codegen import _hardware_range, hardware_range
from translator.ir.isl_glue.dependences import (_find_conflict, _footprint, access_footprint,
                                                find_conflict, instance_set)
from translator.ir.slicing import sub_kernel

V = p.Variable


def _split_domain(name: str) -> isl.BasicSet:
    return isl.BasicSet(f"[m] -> {{ [{name}_outer, {name}_inner] : 0 <= {name}_inner < 256 "
                        f"and 1 <= {name}_inner + 256 {name}_outer <= m }}")


def test_alpha_key_names_set_dims_by_position_only():
    a, b = _split_domain("i_1"), _split_domain("i_2")
    assert core.alpha_key(a) == core.alpha_key(b)
    assert core.alpha_key(a) != core.alpha_key(isl.BasicSet("[m] -> { [i, j] : 0 <= i < m "
                                                            "and 0 <= j < 256 }"))
    # a set that already uses the positional names is never keyed (it could be mistaken)
    assert core.alpha_key(isl.BasicSet("[_tr_a0] -> { [i] : 0 <= i < _tr_a0 }")) is None
    # a parameter spelled like a set dim is never keyed either
    clash = isl.Set("[i] -> { [j] : 0 <= j < i }").set_dim_name(isl.dim_type.set, 0, "i")
    assert core.alpha_key(clash) is None


@pytest.mark.parametrize("suffix", ["outer", "inner"])
def test_hardware_range_remembered_equals_computed(suffix):
    core._MEMO.clear()
    first = hardware_range(_split_domain("i_1"), f"i_1_{suffix}")
    again = hardware_range(_split_domain("i_2"), f"i_2_{suffix}")   # answered from memory
    assert again == first == _hardware_range(_split_domain("i_2"), f"i_2_{suffix}")


def _pair(name: str):
    knl = translator.make_kernel(f"{{[{name}]: 0<={name}<n}}", f"out[{name}] = 2*a[{name}]")
    other = f"_tr_w2_{name}"
    first = instance_set(knl.domains, [name])
    second = instance_set(knl.domains, [name], rename={name: other})
    return first, second, other


def test_find_conflict_remembered_up_to_names_gives_this_calls_names():
    core._MEMO.clear()
    results = []
    for name in ("i_1", "i_2"):
        first, second, other = _pair(name)
        eq = [(V(name), V(other) + 1)]
        found = find_conflict(first, second, eq, [(name, other)])
        assert found == _find_conflict(first, second, eq, [(name, other)], ())
        assert found is not None and found[name] == found[other] + 1
        results.append(found)
    assert set(results[1]) == {"i_2", "_tr_w2_i_2", "n"}


def test_find_conflict_remembered_none_stays_none():
    core._MEMO.clear()
    for name in ("j_1", "j_2"):
        first, second, other = _pair(name)
        eq = [(2 * V(name), 2 * V(other) + 1)]
        assert find_conflict(first, second, eq, [(name, other)]) is None
        assert _find_conflict(first, second, eq, [(name, other)], ()) is None


def test_access_footprint_remembered_equals_computed():
    core._MEMO.clear()
    for name in ("k_1", "k_2"):
        knl = translator.make_kernel(f"{{[{name}]: 0<={name}<n}}", f"out[{name}] = 1")
        index = (V(name) + 1,)
        got = access_footprint(knl.domains, [name], (), index, ())
        direct = _footprint(instance_set(knl.domains, [name]), [name], index, ())
        assert got.is_equal(direct)
        assert got.get_var_names(isl.dim_type.param) == direct.get_var_names(
            isl.dim_type.param)


def test_dependencies_remembered_equal_computed():
    ir_expr._DEPENDENCIES.clear()
    e = V("a") * V("i") + V("n")
    assert ir_expr.dependencies(e) == frozenset({"a", "i", "n"})
    assert ir_expr.dependencies(V("a") * V("i") + V("n")) == frozenset({"a", "i", "n"})
    assert ir_expr.dependencies(V("a") * V("i") + V("m")) == frozenset({"a", "i", "m"})


def test_kernel_accesses_remembered_equal_computed_and_are_copies():
    knl = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 2*a[i] + a[i+1]")
    access._ACCESSES.clear()
    first = access.kernel_accesses(knl)
    fresh = [a for s in knl.statements for a in access.statement_accesses(knl, s)]
    assert first == fresh
    first.clear()
    tagged = knl.copy(name="other")   # shares its parts: answered from memory
    assert access.kernel_accesses(tagged) == fresh


def test_proved_kernel_is_not_checked_again_and_a_racing_one_still_fails():
    ok = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = 2*a[i]")
    ok = transforms.tag_inames(ok, {"i": "l.0"})
    legality._PROVED.clear()
    assert legality.check_mappings(ok) is ok
    assert legality._PROVED[0] is ok
    assert legality.check_mappings(ok) is ok
    bad = translator.make_kernel("{[i]: 0<=i<n}", "out[i] = out[i+1]")
    bad = transforms.tag_inames(bad, {"i": "l.0"})
    with pytest.raises(LegalityError):
        legality.check_mappings(bad)
    with pytest.raises(LegalityError):   # a failure is never remembered
        legality.check_mappings(bad)


def _reference_sub_kernel(kernel, ids, host, name):
    """The scan over the whole kernel that `sub_kernel`'s index replaces."""
    from dataclasses import replace

    from translator.ir.data import ArrayArg, ValueArg
    from translator.ir.isl_glue import inames_of
    from translator.ir.util import FrozenDict
    from translator.ir.mappers import reduction_inames
    from translator.ir.slicing import referenced_names as _referenced
    keep, host_set = set(ids), set(host)
    stmts = tuple(replace(s, within_inames=s.within_inames - host_set,
                          depends_on=frozenset(d for d in s.depends_on if d in keep))
                  for s in kernel.statements if s.id in keep)
    used = set().union(*(s.within_inames | reduction_inames(s) for s in stmts))
    names_of = [frozenset(inames_of(d)) for d in kernel.domains]
    picked = [k for k, nm in enumerate(names_of) if nm & used and not nm & host_set]
    inames = set().union(*(names_of[k] for k in picked))
    names = _referenced(stmts)
    args = tuple(replace(a, is_input=None, is_output=None) if isinstance(a, ArrayArg) else a
                 for a in kernel.args if not isinstance(a, ArrayArg) or a.name in names)
    args += tuple(ValueArg(name=n, dtype="int32") for n in host if kernel.arg(n) is None)
    return kernel.copy(
        name=name, statements=stmts, domains=tuple(kernel.domains[k] for k in picked),
        args=args, iname_tags=FrozenDict({n: t for n, t in kernel.iname_tags.items()
                                          if n in inames}),
        loop_priority=frozenset(t for t in kernel.loop_priority if set(t) <= inames),
        temporaries=FrozenDict({n: t for n, t in kernel.temporaries.items() if n in names}))


def test_sub_kernel_by_index_equals_the_scan():
    knl = translator.make_kernel(
        ["{[t]: 0<=t<nt}", "{[i]: 0<=i<n}", "{[j]: 0<=j<n}", "{[k]: 0<=k<n}"],
        ["b[i] = a[i] + t {id=s1}", "c[j] = b[j] * 2 {id=s2, dep=s1}",
         "a[k] = c[k] - 1 {id=s3, dep=s2}"])
    knl = transforms.tag_inames(knl, {"k": "unr", "i": "ord"})
    for ids, host in ((["s2", "s1"], ()), (["s3"], ()), (["s1", "s3"], ("t",))):
        assert sub_kernel(knl, ids, host, "x") == _reference_sub_kernel(knl, ids, host, "x")


def _hardware_bounds(name: str):
    inner, outer = V(f"{name}_inner"), V(f"{name}_outer")
    return (p.Comparison(inner, ">=", 0), p.Comparison(inner, "<=", 255),
            p.Comparison(outer, ">=", 0),
            p.Comparison(outer, "<=", p.FloorDiv(V("m"), 256)))


@pytest.mark.parametrize("assume", [None, "[m] -> { : m >= 1 }"])
def test_context_set_remembered_up_to_names_prints_as_computed(assume):
    from translator.ir.isl_glue.codegen import _context_set, context_set
    assumptions = None if assume is None else isl.BasicSet(assume)
    core._MEMO.clear()
    # "a" sorts before "m" and "z" after it: their sets are remembered apart
    for name in ("i_1", "i_2", "a", "z"):
        conds = _hardware_bounds(name)
        got = context_set(conds, assumptions)
        assert str(got) == str(_context_set(conds, assumptions))


def test_nonnegative_remembered_equals_computed():
    from translator.ir.isl_glue.codegen import context_set
    core._MEMO.clear()
    ctx = context_set((p.Comparison(V("m"), ">=", 1),))
    for e, expected in ((V("m") - 1, True), (V("m") - 2, False), (V("m") - 1, True)):
        assert core.is_nonnegative(e, ctx) is expected
        assert core._is_nonnegative(e, ctx, None) is expected


def test_writes_cover_box_remembered_equals_computed():
    from translator.ir.isl_glue.codegen import _writes_cover_box, writes_cover_box
    core._MEMO.clear()
    for name, offset, expected in (("i_1", 0, True), ("i_2", 0, True), ("i_3", 1, False)):
        dom = isl.BasicSet(f"[n] -> {{ [{name}] : 0 <= {name} < n }}")
        writes = [(dom, (V(name) + offset,))]
        assert writes_cover_box(writes, (V("n"),)) is expected
        assert _writes_cover_box(writes, (V("n"),), None) is expected


def test_c_string_literal_table_equals_byte_by_byte_escapes():
    from translator.codegen.host import _escape_byte, c_string_literal
    text = "".join(chr(c) for c in range(0, 300)) + '\n?"\\\t\r\u4e2d\n\nend'
    expected = "\n".join('    "' + "".join(_escape_byte(b) for b in chunk) + '"'
                         for chunk in text.encode("utf-8").splitlines(keepends=True))
    assert c_string_literal(text) == expected
