"""Accesses of one array cut into clusters of disjoint elements before the conflict proof
(issue 24, the `statements` shape): ``y[k*n + i]`` for k = 0 .. N-1 lie in bands one above
the other, so the proof asks one small isl question per band instead of one over the union
of all N footprints (which isl intersects pair by pair: 400 statements took 7-10 s).

The verdicts are those of the proof over all accesses at once: checked against it on random
access sets, and on racing regions whose error names the first racing pair.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymbolic.primitives as p
import pytest

from tests.build.shapes import shape
from tests.e2e.harness import check_sample
from translator.diagnostics import LegalityError
from translator.driver import translate_text
from translator.ir.isl_glue import dependences, parse_domain, separation
from translator.ir.isl_glue.separation import element_clusters

N, I, J = p.Variable("n"), p.Variable("i"), p.Variable("j")


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_statements_on_one_pointer_are_proved_band_by_band(lang: str, monkeypatch) -> None:
    """The proof never unites the footprints of all statements (before: one union of 60)."""
    sizes: list[int] = []
    real = dependences.union_all

    def recording(sets, **kw):
        sizes.append(len(sets))
        return real(sets, **kw)

    monkeypatch.setattr(dependences, "union_all", recording)
    name, text = shape("statements", lang, 60)
    result = translate_text(name, text)
    assert max(sizes, default=0) <= 1
    device = "".join(v for k, v in result.outputs.items() if k.endswith(".cl"))
    assert "get_group_id" in device or "get_global_id" in device


@pytest.mark.parametrize("lang", ["c", "fortran"])
def test_statements_shape_matches_when_translated(lang: str, tmp_path: Path) -> None:
    name, text = shape("statements", lang, 40, header="translate-test: rtol=0")
    src = tmp_path / name
    src.write_text(text)
    check_sample(src, tmp_path)


def test_bands_of_the_statements_shape_are_singletons() -> None:
    domains = (parse_domain("{[i]: 0 <= i < n}"),)
    prints = [dependences.access_footprint(domains, ("i",), (), (k * N + I,), ())
              for k in (3, 0, 2, 1)]
    assert element_clusters(prints, ["_tr_e0"]) == [[0], [1], [2], [3]]


def test_overlapping_bands_share_a_cluster() -> None:
    """``y[n + i + 1]`` reaches into the band of ``y[2*n + i]``; ``y[5*n + i]`` is apart."""
    domains = (parse_domain("{[i]: 0 <= i < n}"),)
    subscripts = [N + I + 1, 2 * N + I, 5 * N + I, I]
    prints = [dependences.access_footprint(domains, ("i",), (), (s,), ())
              for s in subscripts]
    assert element_clusters(prints, ["_tr_e0"]) == [[0, 1], [2], [3]]


def _random_accesses(rng: random.Random, inames: tuple[str, ...]) -> tuple:
    """8-14 accesses ``y[a*n + i]`` on distinct bands, one of them (in most sets) moved off
    its band: ``+ c``, ``2*i``, ``-i``, another band's ``a``, or ``+ j`` (inner loop)."""
    count = rng.randint(8, 14)
    bands = rng.sample(range(16), count)
    subscripts = [a * N + I for a in bands]
    k = rng.randrange(count)
    change = rng.choice(["none", "shift", "twice", "minus", "band", "inner"])
    if change == "shift":
        subscripts[k] += rng.choice([-2, -1, 1, 3])
    elif change == "twice":
        subscripts[k] = bands[k] * N + 2 * I
    elif change == "minus":
        subscripts[k] = bands[k] * N + N - 1 - I
    elif change == "band":
        subscripts[k] = bands[(k + 1) % count] * N + I
    elif change == "inner" and "j" in inames:
        subscripts[k] += J
    return tuple((inames, (), (s,), rng.random() < 0.6) for s in subscripts)


@pytest.mark.parametrize("inner", [False, True])
def test_verdicts_are_those_of_one_proof_over_all_accesses(inner: bool) -> None:
    """Random access sets on one array: the clustered proof answers as the proof over the
    union of every footprint (the computation before clusters), both ways."""
    rng = random.Random(24 + inner)
    text = "{[i, j]: 0 <= i < n and 0 <= j < 3}" if inner else "{[i]: 0 <= i < n}"
    domains = (parse_domain(text),)
    inames = ("i", "j") if inner else ("i",)
    seen = set()
    for _ in range(60):
        accesses = _random_accesses(rng, inames)
        got = separation._accesses_conflict_free(domains, "i", accesses, None)
        prints = [(dependences.access_footprint(domains, a[0], (), a[2], ("i",)), a[3])
                  for a in accesses]
        assert got == dependences.footprints_conflict_free(prints, "i"), accesses
        seen.add(got)
    assert seen == {True, False}


RACING = """\
#include <stdio.h>

static void f(int n, const double *restrict x, double *restrict y)
{
#pragma translate kernel
#pragma translate tag_inames("i:g.0")
  for (int i = 0; i < n; i++) {
BODY
  }
#pragma translate end kernel
}

int main(void) { static double x[4], y[64]; f(4, x, y); printf("%g\\n", y[5]); return 0; }
"""


@pytest.mark.parametrize("racer,line", [("y[3*n + i + 1] = x[i];", 11),
                                        ("y[2*n + i] = y[7*n + i - 5*n + 1];", 10)])
def test_a_race_between_bands_is_found_with_its_first_pair(racer: str, line: int) -> None:
    """The statement on line 20 reaches into the band written on `line`."""
    body = [f"    y[{k}*n + i] = x[i] * {k + 1}.0;" for k in range(12)]
    body.insert(12, f"    {racer}")
    with pytest.raises(LegalityError) as err:
        translate_text("racing.c", RACING.replace("BODY", "\n".join(body)))
    assert "mapping i to g.0 races" in err.value.message
    assert "(racing.c:20)" in err.value.message
    assert err.value.span.line == line
