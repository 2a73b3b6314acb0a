"""Legality verdicts on small kernels: each loop with its mapping, expected verdict and witness."""

from __future__ import annotations

import pytest

import translator
from translator.analysis.legality import check_kernel
from translator.diagnostics import LegalityError
from translator.ir import FrozenDict, parse_tag


def mapped(domain: str, insns: str, tags: dict[str, str]):
    knl = translator.make_kernel(domain, insns)
    return knl.copy(iname_tags=FrozenDict(
        {n: frozenset([parse_tag(t)]) for n, t in tags.items()}))


LEGAL = [
    ("elementwise", "{[i]: 0<=i<n}", "a[i] = 2*b[i]", {"i": "l.0"}),
    ("in place", "{[i]: 0<=i<n}", "a[i] = a[i] + 1", {"i": "g.0"}),
    ("outer loop carries it", "{[i,j]: 0<=i<n and 1<=j<m}", "a[i, j] = a[i, j-1] + 1",
     {"i": "g.0"}),
    ("even/odd disjoint", "{[i]: 0<=i<n}", "a[2*i] = a[2*i+1]", {"i": "l.0"}),
    ("row reduction, rows parallel", "{[i,j]: 0<=i<n and 0<=j<n}", "c[i] = sum(j, a[i,j])",
     {"i": "l.0"}),
    ("transpose out of place", "{[i,j]: 0<=i,j<n}", "b[j, i] = a[i, j]", {"i": "g.0", "j": "l.0"}),
    ("read-only shared input", "{[i]: 0<=i<n}", "a[i] = b[0] + b[i]", {"i": "l.0"}),
    ("stencil out of place", "{[i]: 1<=i<n-1}", "b[i] = a[i-1] + a[i] + a[i+1]", {"i": "l.0"}),
    ("wavefront inner parallel after skew", "{[t,i]: 1<=t<m and 0<=i<n}",
     "a[t, i] = a[t-1, i] + 1", {"i": "l.0"}),
    ("ilp over independent", "{[i]: 0<=i<8}", "a[i] = b[i]", {"i": "ilp"}),
    ("dependence distance 4, lanes of 4 apart", "{[i,j]: 0<=i<n and 0<=j<4}",
     "a[8*i + j] = a[8*i + j + 4] + 1", {"j": "vec"}),
]

ILLEGAL = [
    ("recurrence", "{[i]: 0<=i<n}", "a[i] = a[i-1] + b[i]", {"i": "l.0"},
     "iteration i=0 writes a[0], iteration i=1 reads a[0]"),
    ("anti dependence", "{[i]: 0<=i<n}", "a[i] = a[i+1] + b[i]", {"i": "g.0"},
     "reads a["),
    ("output dependence a(i/2)", "{[i]: 0<=i<n}", "a[i // 2] = b[i]", {"i": "g.0"},
     "writes a[0]"),
    ("inner loop carries it", "{[i,j]: 0<=i<n and 1<=j<m}", "a[i, j] = a[i, j-1] + 1",
     {"j": "l.0"}, "writes a[0, 1]"),
    ("scalar accumulation", "{[i]: 0<=i<n}", "s[0] = s[0] + b[i]", {"i": "l.0"},
     "writes s[0]"),
    ("indirect write", "{[i]: 0<=i<n}", "a[idx[i]] = b[i]", {"i": "l.0"}, "may race"),
    ("wavefront outer", "{[t,i]: 1<=t<m and 0<=i<n}", "a[t, i] = a[t-1, i] + 1",
     {"t": "g.0"}, "writes a[1, 0]"),
    ("distance 4 inside lanes of 8", "{[i,j]: 0<=i<n and 0<=j<8}",
     "a[8*i + j] = a[8*i + j + 4] + 1", {"j": "ilp"}, "races"),
    ("prefix sum", "{[i]: 1<=i<n}", "a[i] = a[i-1] + a[i]", {"i": "l.0"}, "races"),
]


@pytest.mark.parametrize("name,domain,insns,tags", LEGAL, ids=[c[0] for c in LEGAL])
def test_legal(name, domain, insns, tags) -> None:
    knl = mapped(domain, insns, tags)
    assert check_kernel(knl) is knl


@pytest.mark.parametrize("name,domain,insns,tags,witness", ILLEGAL,
                         ids=[c[0] for c in ILLEGAL])
def test_illegal(name, domain, insns, tags, witness) -> None:
    knl = mapped(domain, insns, tags)
    with pytest.raises(LegalityError) as info:
        check_kernel(knl)
    msg = info.value.message
    iname = next(iter(tags))
    assert msg.startswith(f"mapping {iname} to {parse_tag(tags[iname])} ")
    assert witness in msg, msg


def test_independent_assertion_is_trusted() -> None:
    knl = mapped("{[i]: 0<=i<n}", "a[idx[i]] = b[i]", {"i": "l.0"})
    knl = knl.copy(options=knl.options.__class__(extra=FrozenDict({"independent": ("i",)})))
    assert check_kernel(knl) is knl


def test_independent_pragma_survives_split() -> None:
    import transforms
    knl = translator.make_kernel("{[i]: 0<=i<n}", "a[idx[i]] = b[i]")
    knl = transforms.independent(knl, "i")
    knl = transforms.split_iname(knl, "i", 16, outer_tag="g.0", inner_tag="l.0")
    assert check_kernel(knl) is knl


def test_noalias_pragma_removes_aliasing() -> None:
    import transforms
    from translator.ir import ArrayArg
    knl = translator.make_kernel("{[i]: 0<=i<n}", "a[i] = b[i]")
    args = tuple(a.__class__(**{**{f: getattr(a, f) for f in a.__dataclass_fields__},
                                "may_alias": frozenset({"a", "b"} - {a.name})})
                 if isinstance(a, ArrayArg) else a for a in knl.args)
    knl = knl.copy(args=args)
    out = transforms.noalias(knl, "a", "b")
    assert all(not a.may_alias for a in out.array_args)
    assert transforms.noalias(out, "a", "b") is out


def test_noalias_errors() -> None:
    import transforms
    from translator.diagnostics import TransformError
    knl = translator.make_kernel("{[i]: 0<=i<n}", "a[i] = b[i]")
    with pytest.raises(TransformError, match="'q' is not an array argument"):
        transforms.noalias(knl, "a", "q")
    with pytest.raises(TransformError, match="at least two"):
        transforms.noalias(knl, "a")


def _aliasing(knl):
    from translator.ir import ArrayArg
    names = {a.name for a in knl.array_args}
    return knl.copy(args=tuple(
        a.__class__(**{**{f: getattr(a, f) for f in a.__dataclass_fields__},
                       "may_alias": frozenset(names - {a.name})})
        if isinstance(a, ArrayArg) else a for a in knl.args))


def test_aliasing_pointers_may_race_until_noalias() -> None:
    import transforms
    knl = _aliasing(mapped("{[i]: 0<=i<n}", "a[i] = 2*b[i]", {"i": "l.0"}))
    with pytest.raises(LegalityError, match=r"may overlap; declare them restrict or add "
                                            r"noalias\(\"a\", \"b\"\)"):
        check_kernel(knl)
    fixed = transforms.noalias(knl, "a", "b")
    assert check_kernel(fixed) is fixed


@pytest.mark.parametrize("insn", ["s[0] = sum(i, b[i])", "s[0] = max(i, abs(b[i]))",
                                  "s[0] = s[0] + sum(i, a[i]*b[i])"])
def test_reduction_over_a_parallel_iname_is_written_once(insn: str) -> None:
    knl = mapped("{[i]: 0<=i<n}", insn, {"i": "l.0"})
    assert check_kernel(knl) is knl


def test_row_sums_reduce_over_local_axis() -> None:
    knl = mapped("{[i,j]: 0<=i<n and 0<=j<m}", "r[i] = sum(j, a[i, j])",
                 {"i": "g.0", "j": "l.0"})
    assert check_kernel(knl) is knl


def test_linearised_rows_are_delinearised_and_proved_parallel() -> None:
    knl = mapped("{[i,j]: 0<=i<n and 0<=j<m}", "b[i*m + j] = 2*a[i*m + j]",
                 {"i": "g.0", "j": "l.0"})
    assert check_kernel(knl) is knl


def test_linearised_recurrence_along_rows_is_caught_exactly() -> None:
    knl = mapped("{[i,j]: 1<=i<n and 0<=j<m}", "a[i*m + j] = a[(i-1)*m + j] + 1",
                 {"i": "g.0"})
    with pytest.raises(LegalityError, match=r"races: iteration i=1, j=0 writes a\[(\d+)\], "
                                            r"iteration i=2, j=0 reads a\[\1\]"):
        check_kernel(knl)


def test_linearised_stencil_crossing_rows_is_unknown() -> None:
    knl = mapped("{[i,j]: 0<=i<n and 0<=j<m}", "a[i*m + j] = a[i*m + j + 1]", {"j": "l.0"})
    with pytest.raises(LegalityError, match="may race"):
        check_kernel(knl)


def test_statement_outside_the_mapped_loop_runs_once() -> None:
    # s[0] = 0 runs on one work item; the loop does not touch s: legal
    knl = mapped("{[i]: 0<=i<n}", "s[0] = 0 {id=init}\na[i] = 2*b[i] {id=body}", {"i": "l.0"})
    assert check_kernel(knl) is knl


def test_statement_outside_the_mapped_loop_feeding_it_races() -> None:
    knl = mapped("{[i]: 0<=i<n}", "s[0] = 3 {id=init}\na[i] = s[0]*b[i] {id=body, dep=init}",
                 {"i": "l.0"})
    with pytest.raises(LegalityError, match="writes s\\[0\\]"):
        check_kernel(knl)


def _prioritized(domain: str, insns: str, order: str):
    import transforms
    return transforms.prioritize_loops(translator.make_kernel(domain, insns), order)


def test_interchange_reversing_a_dependence_is_refused() -> None:
    # a[i, j] = a[i-1, j+1]: distance (1, -1); j outside i runs the read before the write
    knl = _prioritized("{[i,j]: 1<=i<n and 0<=j<m-1}", "a[i, j] = a[i-1, j+1] + 1", "j,i")
    with pytest.raises(LegalityError, match=r"interchanging loops j and i .* reverses a "
                                            r"dependence: iteration i=\d+, j=\d+ writes a\["):
        check_kernel(knl)


@pytest.mark.parametrize("insn", ["a[i, j] = a[i-1, j] + 1", "a[i, j] = a[i-1, j-1] + 1",
                                  "b[i, j] = a[i, j] + 1"])
def test_interchange_keeping_every_dependence_is_legal(insn: str) -> None:
    knl = _prioritized("{[i,j]: 1<=i<n and 1<=j<m}", insn, "j,i")
    assert check_kernel(knl) is knl
