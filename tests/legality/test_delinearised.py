"""Flat subscripts with composite row strides, read back as rows (`translator.ir.delinearise`).

The verdicts on fixed shapes, then random ones (row strides ``n``, ``n + 4``, ``2*n``, ``ld``;
inner ranges inside or past the row; in-place and out-of-place offsets; either loop mapped)
against a brute-force oracle that enumerates every instance for small parameter values: a
legal verdict with two instances of different work items touching one address, one of them
writing, would be unsound.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass

import pytest

import translator
from translator.analysis.access import statement_accesses
from translator.analysis.legality import check_kernel
from translator.diagnostics import LegalityError
from translator.ir import FrozenDict, parse_tag
from translator.ir.delinearise import split_flat
from translator.ir.parse_expr import parse_expression


def mapped(domain: str, insns: str, tags: dict[str, str], assumptions: str | None = None):
    knl = translator.make_kernel(f"[ld, m, n] -> {domain}", insns, assumptions=assumptions)
    return knl.copy(iname_tags=FrozenDict(
        {n: frozenset([parse_tag(t)]) for n, t in tags.items()}))


@pytest.mark.parametrize(("text", "coords", "strides"), [
    ("(n + 4)*k + j", ["k", "j"], ["n + 4"]),
    ("k*ld + j + 2", ["k", "j + 2"], ["ld"]),
    ("i*n*m + j*m + l", ["i", "j", "l"], ["n", "m"]),
    ("(j + ld*(k - 1)) - 1", ["k + -1", "j + -1"], ["ld"]),
    ("n*(m - 1 - k) + j", ["(-1)*k + m + -1", "j"], ["n"]),
])
def test_flat_subscripts_split_into_rows(text: str, coords: list[str],
                                         strides: list[str]) -> None:
    found = split_flat(parse_expression(text), {"i", "j", "k", "l"})
    assert found is not None
    assert [str(c) for c in found[0]] == coords
    assert [str(s) for s in found[1]] == strides


@pytest.mark.parametrize("text", ["i*j", "n*m*k + j", "j"])
def test_subscripts_without_parameter_rows_do_not_split(text: str) -> None:
    assert split_flat(parse_expression(text), {"i", "j", "k"}) is None


def test_padded_rows_are_proved_parallel() -> None:
    knl = mapped("{[k,j]: 0<=k<m and 0<=j<n}", "b[(n+4)*k + j] = 2*a[(n+4)*k + j + 2]",
                 {"k": "g.0", "j": "l.0"})
    assert check_kernel(knl) is knl
    (write,) = [a for a in statement_accesses(knl, knl.statements[0]) if a.is_write]
    assert write.layout == "delinearised:n + 4"


def test_rows_of_ld_need_the_inner_range_proved() -> None:
    text = "b[k*ld + j] = b[k*ld + j] + 1"
    with pytest.raises(LegalityError, match="may race") as info:
        check_kernel(mapped("{[k,j]: 0<=k<m and 0<=j<n}", text, {"k": "g.0"}))
    assert ("b is addressed by rows of ld elements, but 0 <= j < ld is not proved (a row may "
            "reach into another); if n <= ld holds, say so with assume(\"n <= ld\") in the "
            "region") in info.value.render()
    knl = mapped("{[k,j]: 0<=k<m and 0<=j<n}", text, {"k": "g.0"}, assumptions="n <= ld")
    assert check_kernel(knl) is knl


def test_three_dimensional_flat_array_with_two_strides() -> None:
    knl = mapped("{[i,j,l]: 0<=i<ld and 0<=j<n and 0<=l<m}",
                 "b[i*n*m + j*m + l] = b[i*n*m + j*m + l] * 2", {"i": "g.0", "j": "g.1"})
    assert check_kernel(knl) is knl


def test_row_reaching_into_the_next_is_a_race() -> None:
    knl = mapped("{[k,j]: 0<=k<m and 0<=j<=n+4}", "b[(n+4)*k + j] = a[(n+4)*k + j] + k",
                 {"k": "g.0"})
    with pytest.raises(LegalityError, match="mapping k to g.0 may race"):
        check_kernel(knl)


def test_carried_dependence_between_rows_is_exact() -> None:
    knl = mapped("{[k,j]: 1<=k<m and 0<=j<n}", "b[(n+4)*k + j] = b[(n+4)*(k-1) + j] + 1",
                 {"k": "g.0"})
    with pytest.raises(LegalityError, match=r"races: iteration j=0, k=1 writes b\[(\d+)\], "
                                            r"iteration j=0, k=2 reads b\[\1\]"):
        check_kernel(knl)


# ---------------------------------------------------------------------------------------------
# random shapes against brute force

STRIDES = ("n", "n + 4", "n + 1", "2*n", "ld")
UPPER = ("n", "n", "n + 4", "n + 3", "n + 5", "n - 1", "ld", "2*n")


@dataclass(frozen=True)
class Case:
    stride: str
    lower: int
    upper: str          # exclusive
    write_offset: int
    read_offset: int
    source: str         # "b": in place, "a": another array
    iname: str          # the mapped loop

    @property
    def domain(self) -> str:
        return f"{{[k,j]: 0<=k<m and {self.lower}<=j<{self.upper}}}"

    def address(self, offset: int) -> str:
        return f"({self.stride})*k + j + {offset}"

    @property
    def statement(self) -> str:
        return (f"b[{self.address(self.write_offset)}] = "
                f"{self.source}[{self.address(self.read_offset)}] + 1")


def _case(seed: int) -> Case:
    rng = random.Random(seed)
    return Case(rng.choice(STRIDES), rng.choice((0, 0, 1, -1)), rng.choice(UPPER),
                rng.choice((0, 0, 1, 2)), rng.choice((0, 1, -1, 2, 4)), rng.choice(("a", "b")),
                rng.choice(("k", "j")))


def _conflict(case: Case) -> dict | None:
    """Values of n, m, ld and an address that two instances on different values of the
    mapped loop touch, one of them writing; None if there is none."""
    write, read = case.address(case.write_offset), case.address(case.read_offset)
    for n, m, ld in itertools.product(range(5), range(4), range(6)):
        env = {"n": n, "m": m, "ld": ld}
        seen: dict[int, list[tuple[int, bool]]] = {}
        for k, j in itertools.product(range(m), range(case.lower, eval(case.upper, {}, env))):
            point = {**env, "k": k, "j": j}
            key = point[case.iname]
            touched = [(eval(write, {}, point), True)]
            if case.source == "b":
                touched.append((eval(read, {}, point), False))
            for addr, is_write in touched:
                if any(other != key and (is_write or w) for other, w in seen.get(addr, [])):
                    return {**env, "address": addr}
                seen.setdefault(addr, []).append((key, is_write))
    return None


@pytest.mark.parametrize("start", range(0, 400, 100))
def test_random_flat_subscripts_against_brute_force(start: int) -> None:
    legal = 0
    for seed in range(start, start + 100):
        case = _case(seed)
        knl = mapped(case.domain, case.statement, {case.iname: "g.0"})
        try:
            check_kernel(knl)
        except LegalityError:
            continue
        legal += 1
        witness = _conflict(case)
        assert witness is None, f"seed {seed}: {case} is unsound: {witness}"
    assert legal >= 5, legal      # the oracle has verdicts to check


# ---------------------------------------------------------------------------------------------
# rows of a parameter product and of an anti-diagonal (h77: Rodinia lud's a[i*size + j] with i
# a parameter, nw's (k + 1)*n + p - k), random shapes against brute force

ADDRESSES = ("({s})*p + j + {o}", "({s})*k + j + {o}", "({s})*k + p + {o}",
             "({s})*(k + 1) + p - k + {o}", "({s})*p + p + {o}", "({s})*(p - k) + k + j + {o}")


@dataclass(frozen=True)
class RowCase:
    stride: str
    upper: str          # of j, exclusive
    k_upper: str        # of k, inclusive
    write: str
    read: str
    source: str
    iname: str

    @property
    def domain(self) -> str:
        return (f"[ld, m, n, p] -> {{[k,j]: 0<=k<m and k<={self.k_upper} and "
                f"0<=j<{self.upper}}}")

    @property
    def statement(self) -> str:
        return f"b[{self.write}] = {self.source}[{self.read}] + 1"


def _row_case(seed: int) -> RowCase:
    rng = random.Random(seed)
    stride = rng.choice(("n", "n + 1", "ld"))

    write = rng.choice(ADDRESSES)
    read = write if rng.random() < 0.6 else rng.choice(ADDRESSES)   # mostly one shape
    iname = rng.choice([x for x in "kj" if re.search(rf"\b{x}\b", write)] or ["k"])

    def offset() -> int:
        return rng.choice((0, 0, 1, -1))
    return RowCase(stride, rng.choice(("n", "n - 1", "n + 1", "ld")),
                   rng.choice(("p", "m", "p - 1")), write.format(s=stride, o=offset()),
                   read.format(s=stride, o=offset()), rng.choice(("a", "b")), iname)


def _row_conflict(case: RowCase) -> dict | None:
    """As `_conflict`; a statement runs inside the loops whose variables it names (as
    `make_kernel` places it), once for the others."""
    named = set(re.findall(r"\b[kj]\b", case.statement))
    for n, m, ld, p in itertools.product(range(5), range(4), range(5), range(-1, 4)):
        env = {"n": n, "m": m, "ld": ld, "p": p}
        seen: dict[int, list[tuple[int, bool]]] = {}
        k_end = min(m - 1, eval(case.k_upper, {}, env)) + 1
        j_end = eval(case.upper, {}, env)
        for k in range(k_end) if "k" in named else [None]:
            for j in range(j_end) if "j" in named else [None]:
                point = {**env, "k": k, "j": j}
                key = point[case.iname]
                touched = [(eval(case.write, {}, point), True)]
                if case.source == "b":
                    touched.append((eval(case.read, {}, point), False))
                for addr, is_write in touched:
                    if any(other != key and (is_write or w)
                           for other, w in seen.get(addr, [])):
                        return {**env, "address": addr}
                    seen.setdefault(addr, []).append((key, is_write))
    return None


@pytest.mark.parametrize("start", range(0, 600, 100))
def test_random_parameter_and_diagonal_rows_against_brute_force(start: int) -> None:
    legal = 0
    for seed in range(start, start + 100):
        case = _row_case(seed)
        knl = translator.make_kernel(case.domain, case.statement)
        knl = knl.copy(iname_tags=FrozenDict({case.iname: frozenset([parse_tag("g.0")])}))
        try:
            check_kernel(knl)
        except LegalityError:
            continue
        legal += 1
        witness = _row_conflict(case)
        assert witness is None, f"seed {seed}: {case} is unsound: {witness}"
    assert legal >= 5, legal
