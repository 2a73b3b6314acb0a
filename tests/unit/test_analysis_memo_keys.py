"""The answers analysis remembers or shares between accesses tell apart what pymbolic's
equality does not (``a[i + 1]`` and ``a[i + 1.0]``, ``i < 1`` and ``i < 1.0``, ``1`` and
``True``): the spill search's memo, `same_elements_key`, the group proof's distinct
accesses and `is_affine`'s memo are keyed by `typed_key` (see test_isl_glue_memo.py for the
isl glue's other keys)."""

from __future__ import annotations

import dataclasses

import pymbolic.primitives as p
import pytest

import transforms
import translator
from translator.analysis import legality
from translator.analysis.access import Access, kernel_accesses
from translator.analysis.bounds import access_spill, distinct_accesses, same_elements_key
from translator.diagnostics import LegalityError
from translator.ir.isl_glue import core

I = p.Variable("i")

#: (int form, float or bool form) of one subscript.
SUBSCRIPTS = [(I + 1, I + 1.0), (I + 1, p.Sum((I, True))), (I + 1, p.Sum((I, p.Product((1.0, 1)))))]
#: (int form, float form) of one condition.
CONDITIONS = [(p.Comparison(I, "<", 1), p.Comparison(I, "<", 1.0)),
              (p.Comparison(I, "<", 1), p.Comparison(I, "<", True))]


def _read_of_a() -> tuple[translator.Kernel, Access]:
    """A kernel reading ``a[i]`` of ``a(n)`` over ``0 <= i < n - 1``, and that read."""
    knl = translator.make_kernel("{[i]: 0<=i<n-1}", "out[i] = a[i]",
                                 [translator.GlobalArg("a", "float32", shape=("n",)),
                                  translator.GlobalArg("out", "float32", shape=("n",)), "..."])
    return knl, next(a for a in kernel_accesses(knl) if a.variable == "a")


def _write_in_ij() -> tuple[translator.Kernel, Access]:
    """A kernel over ``i, j`` writing ``out[j]``, and that write (inside both loops)."""
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<n}", "out[j] = a[j]")
    write = next(a for a in kernel_accesses(knl) if a.is_write)
    return knl, dataclasses.replace(write, inames=("i", "j"))


@pytest.mark.parametrize("pair", SUBSCRIPTS)
def test_spill_search_with_int_and_float_subscripts_is_not_confused(pair):
    knl, read = _read_of_a()
    for x, y in (pair, pair[::-1]):
        first, then = (dataclasses.replace(read, index=(e,)) for e in (x, y))
        core._MEMO.clear()
        fresh = access_spill(knl, then)
        core._MEMO.clear()
        access_spill(knl, first)
        after = access_spill(knl, then)
        assert after == fresh, (x, y)
    # the int form stays inside; the others are no subscript isl takes: not proved
    assert access_spill(knl, dataclasses.replace(read, index=(pair[0],))) is None
    assert access_spill(knl, dataclasses.replace(read, index=(pair[1],))) is not None


@pytest.mark.parametrize("pair", SUBSCRIPTS)
def test_same_elements_key_tells_int_and_float_subscripts_apart(pair):
    _, read = _read_of_a()
    int_form, other = (dataclasses.replace(read, index=(e,)) for e in pair)
    assert same_elements_key(int_form) != same_elements_key(other)
    assert distinct_accesses([int_form, other]) == [int_form, other]
    assert distinct_accesses([int_form, dataclasses.replace(int_form, statement="s2")]) \
        == [int_form]


def test_large_group_spill_answers_are_not_shared_by_int_and_float_subscripts():
    # a(n, 4) in C order: the last axis must stay inside 0 .. 3 (`address_spill`)
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<3}", "out[i, j] = a[i, j]",
                                 [translator.GlobalArg("a", "float32", shape=("n", 4)),
                                  translator.GlobalArg("out", "float32", shape=("n", 4)),
                                  "..."])
    read = next(a for a in kernel_accesses(knl) if a.variable == "a")
    J = p.Variable("j")
    int_form, float_form = (dataclasses.replace(read, index=(I, e)) for e in (J + 1, J + 1.0))
    group = legality.GROUP_PROOF_FROM
    floats = [dataclasses.replace(float_form, statement=f"f{k}") for k in range(group)]
    ints = [dataclasses.replace(int_form, statement=f"s{k}") for k in range(group)]
    core._MEMO.clear()
    assert legality._large_groups(knl, floats, "i") == {}    # not proved inside: left out
    core._MEMO.clear()
    kept = legality._large_groups(knl, ints + floats, "i")
    assert [k for g in kept.values() for k in g] == list(range(group))


@pytest.mark.parametrize("pair", CONDITIONS)
def test_group_proof_with_int_and_float_conditions_is_not_confused(pair):
    knl, write = _write_in_ij()
    int_form, other = (dataclasses.replace(write, conditions=(c,)) for c in pair)
    core._MEMO.clear()
    assert legality._group_conflict_free(knl, "i", [int_form])       # i == 0 only
    assert not legality._group_conflict_free(knl, "i", [other])      # not proved
    for bucket in ([int_form, other], [other, int_form]):
        core._MEMO.clear()
        assert not legality._group_conflict_free(knl, "i", bucket)


def _region(first: str, then: str) -> translator.Kernel:
    """Eight statements writing ``out[j]`` under ``i < first`` (four) and ``i < then``, with
    ``i`` mapped to ``g.0``."""
    lines = [f"out[j] = {k}*a[j] {{if=i < {first if k < 4 else then}, inames=i:j}}"
             for k in range(legality.GROUP_PROOF_FROM)]
    knl = translator.make_kernel("{[i, j]: 0<=i<n and 0<=j<n}", "\n".join(lines),
                                 seq_dependencies=True)
    return transforms.tag_inames(knl, "i:g.0")


def test_region_verdict_does_not_depend_on_an_int_twin_of_a_float_condition():
    legality.check_kernel(_region("1", "1"))
    for first, then in (("1.0", "1.0"), ("1", "1.0"), ("1.0", "1")):
        core._MEMO.clear()
        with pytest.raises(LegalityError, match="mapping i to g.0 races"):
            legality.check_kernel(_region(first, then))


@pytest.mark.parametrize("pair", SUBSCRIPTS)
def test_is_affine_with_int_and_float_constants_is_not_confused(pair):
    from translator.ir.isl_glue.core import _AFFINE_CACHE, is_affine
    for x, y in (pair, pair[::-1]):
        _AFFINE_CACHE.clear()
        fresh = is_affine(y, ["i"])
        _AFFINE_CACHE.clear()
        is_affine(x, ["i"])
        assert is_affine(y, ["i"]) == fresh, (x, y)
    assert is_affine(pair[0], ["i"]) and not is_affine(pair[1], ["i"])


def test_float_subscript_after_its_int_twin_is_still_not_affine():
    """``a[i + 1.0]`` is refused as a subscript the translator cannot follow, also after a
    kernel asked about ``a[i + 1]`` (before: an isl error on the constant ``1.0``)."""
    for first in ("b[i] = a[i+1]", "b[i] = a[i+2]"):
        legality.check_kernel(transforms.tag_inames(
            translator.make_kernel("{[i]: 0<=i<n}", first), "i:g.0"))
        knl = translator.make_kernel("{[i]: 0<=i<n}", "a[i+1.0] = 2*a[i]")
        with pytest.raises(LegalityError, match="a subscript is not affine"):
            legality.check_kernel(transforms.tag_inames(knl, "i:g.0"))


def _c_region(first: str, then: str) -> str:
    """A C region of eight statements writing ``out[j]`` under ``i < first`` (four) and
    ``i < then``, with ``i`` mapped to ``g.0``: C keeps ``1.0`` as ``float64(1.0)``, which
    pymbolic takes for ``1``."""
    body = "\n".join(f"      if (i < {first if k < 4 else then}) out[j] = {k} * a[j];"
                     for k in range(legality.GROUP_PROOF_FROM))
    return ("void s(int n, float *restrict out, const float *restrict a) {\n"
            "#pragma translate kernel k\n"
            '#pragma translate tag_inames("i:g.0")\n'
            "  for (int i = 0; i < n; i++) {\n"
            f"    for (int j = 0; j < n; j++) {{\n{body}\n    }}\n  }}\n"
            "#pragma translate end kernel\n}\n")


def test_c_region_verdict_does_not_depend_on_an_int_twin_of_a_float_condition():
    from translator.driver import translate_text
    translate_text("grp.c", _c_region("1", "1"))
    for first, then in (("1.0", "1.0"), ("1", "1.0")):
        core._MEMO.clear()
        with pytest.raises(LegalityError, match="mapping i to g.0 races"):
            translate_text("grp.c", _c_region(first, then))
