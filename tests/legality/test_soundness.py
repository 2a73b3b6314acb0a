"""Never unsound: random affine loop nests with random mappings, checked by brute force.

The oracle runs every iteration of small instances, records which element each instance
touches, and looks for two instances in different work items (different values of the mapped
iname) that touch one element with at least one write.  Every "legal" verdict must survive it;
every witness of an "illegal" verdict must be a real conflict.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import translator
from translator.analysis.legality import check_kernel
from translator.diagnostics import LegalityError
from translator.ir import FrozenDict, parse_tag

N = 5  # loop extent used by the oracle (the verdict must hold for every n)

coef = st.integers(-2, 2)


@st.composite
def nests(draw):
    depth = draw(st.integers(1, 2))
    inames = ["i", "j"][:depth]
    def subscript():
        terms = [f"{draw(coef)}*{n}" for n in inames]
        return " + ".join(terms) + f" + {draw(st.integers(-2, 2))}"
    write = subscript()
    read = subscript()
    tagged = draw(st.sampled_from(inames))
    tag = draw(st.sampled_from(["l.0", "g.0"]))
    return inames, write, read, tagged, tag


def accesses(inames, write, read, n):
    """[(point, element, is_write)] for every iteration (index shifted to be non-negative)."""
    out = []
    for point in itertools.product(range(n), repeat=len(inames)):
        env = dict(zip(inames, point))
        out.append((env, eval(write, {}, env), True))
        out.append((env, eval(read, {}, env), False))
    return out


def oracle_conflict(inames, write, read, tagged, n):
    accs = accesses(inames, write, read, n)
    for (pa, ea, wa), (pb, eb, wb) in itertools.combinations(accs, 2):
        if ea == eb and (wa or wb) and pa[tagged] != pb[tagged]:
            return True
    return False


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests())
def test_verdicts_agree_with_brute_force(case) -> None:
    inames, write, read, tagged, tag = case
    domain = "{[%s]: %s}" % (", ".join(inames), " and ".join(f"0<=%s<n" % i for i in inames))
    # offset keeps subscripts non-negative for the inferred shape; it does not change conflicts
    knl = translator.make_kernel(domain, f"a[{write} + 20] = a[{read} + 20] + 1")
    knl = knl.copy(iname_tags=FrozenDict({tagged: frozenset([parse_tag(tag)])}))
    try:
        check_kernel(knl)
        legal = True
    except LegalityError:
        legal = False
    if legal:
        for n in range(1, N + 1):
            assert not oracle_conflict(inames, write, read, tagged, n), (case, n)
    else:
        assert any(oracle_conflict(inames, write, read, tagged, n) for n in range(1, 12)), case
