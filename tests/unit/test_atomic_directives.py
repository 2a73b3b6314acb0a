"""Which statements under an OpenMP/OpenACC ``atomic`` directive inside a loop directive are
atomic updates of an array element (h80): those the device can update atomically (+ - *
max min); other operators keep the loop as written, a scalar update stays a reduction."""

from __future__ import annotations

import pytest

from frontends.directives.claims import Untouched, element_update, with_inner_directives
from translator.diagnostics import SourceSpan
from translator.ir.claims import LoopClaim


@pytest.mark.parametrize("text", ["h[k[i]]++;", "++h[k[i]];", "h[k]--;", "h[k[i]] += 2*x[i];",
                                  "h[k][j] -= 1;", "h[k[i]] = h[k[i]] + x[i];",
                                  "h[ k[i] ] = x[i] * h[k[i]];", "h[k] *= x; // c",
                                  "h[k] |= 1;", "h[k] = h[k] | 1;", "h[k] &= m;",
                                  "h[k] = m ^ h[k];"])
def test_c_element_updates(text: str) -> None:
    assert element_update(text, "c")


@pytest.mark.parametrize("text", ["h[k] /= 2;", "h[k] = h[k] || 1;", "h[k] = x - h[k];",
                                  "s += 1;", "h[k] = x[i];", "h[k] = h[k] / 2;", "h[k] == 1;"])
def test_c_other_statements(text: str) -> None:
    assert not element_update(text, "c")


@pytest.mark.parametrize("text,expected", [
    ("hist(key(i)) = hist(key(i)) + 1", True), ("v(k) = max(v(k), x(i))", True),
    ("v(k) = min(x(i), v(k))", True), ("r(c(k, e)) = r(c(k, e)) + w(e) * k", True),
    ("r(k) = w(e) + r(k)", True), ("V(K) = V(K) - 1 ! count", True),
    ("v(k) = iand(v(k), 3)", True), ("v(k) = ieor(3, v(k))", True),
    ("v(k) = ishft(v(k), 3)", False), ("r(k) = r(k) ** 2", False), ("r(k) = x", False),
    ("s = s + 1", False)])
def test_fortran_element_updates(text: str, expected: bool) -> None:
    assert element_update(text, "fortran") == expected


def _claim() -> LoopClaim:
    return LoopClaim(model="openmp", name="parallel for", span=SourceSpan(file="f.c", line=3))


def _atomic(line: int) -> Untouched:
    return Untouched(model="openmp", name="atomic", span=SourceSpan(file="f.c", line=line),
                     reason="")


def test_the_loop_claim_records_element_updates_and_scalar_reductions() -> None:
    claim = with_inner_directives(_claim(), [(_atomic(5), "h[k[i]] += 1;", 5),
                                             (_atomic(7), "s += x[i];", 7)], "c")
    assert isinstance(claim, LoopClaim)
    assert [line for line, _ in claim.atomics] == [5]
    assert claim.reductions == (("+", "s"),)


def test_another_operator_leaves_the_loop_as_written() -> None:
    why = with_inner_directives(_claim(), [(_atomic(5), "h[k[i]] /= 2;", 5)], "c")
    assert why == ("its loop holds 'atomic' at line 5, which is not offloaded (only an atomic "
                   "update of a scalar or of an array element is)")


@pytest.mark.parametrize("text,name", [("atomic", "atomic"), ("atomic update seq_cst", "atomic update"),
                                       ("atomic relaxed", "atomic"), ("atomic capture", "atomic capture"),
                                       ("atomic read", "atomic read"), ("atomic write", "atomic write")])
def test_capture_read_and_write_keep_the_loop_as_written(text: str, name: str) -> None:
    """``atomic capture`` over ``h(k) = h(k) + 1`` then ``v = h(k)`` reads the element: only
    ``atomic`` and ``atomic update`` guard an update the device makes."""
    from frontends.directives.openacc import parse_openacc
    from frontends.directives.openmp import parse_openmp
    span = SourceSpan(file="f.f90", line=5)
    for parse in (parse_openmp, parse_openacc):
        directive = parse(text, span, "fortran")
        assert directive.name == name
        claim = with_inner_directives(_claim(), [(directive, "h(k(i)) = h(k(i)) + 1", 5)],
                                      "fortran")
        assert isinstance(claim, LoopClaim) == (name in ("atomic", "atomic update"))


@pytest.mark.parametrize("text,taken", [
    ("if (v > m[k]) m[k] = v;", True), ("if (m[b[i]] < x[i]) { m[b[i]] = x[i]; }", True),
    ("lo[b] = v < lo[b] ? v : lo[b];", True), ("m[k] = v;", False), ("m[k] += v;", False)])
def test_atomic_compare_takes_max_and_min_forms(text: str, taken: bool) -> None:
    """OpenMP 5.1 ``atomic compare`` over a conditional store is an update the device may make
    (h86: the kernel checks that it is a maximum or minimum); anything else keeps the loop as
    written."""
    compare = Untouched(model="openmp", name="atomic compare",
                        span=SourceSpan(file="f.c", line=5), reason="")
    claim = with_inner_directives(_claim(), [(compare, text, 5)], "c")
    assert isinstance(claim, LoopClaim) == taken
    if taken:
        assert claim.atomics == ((5, compare.span),)
