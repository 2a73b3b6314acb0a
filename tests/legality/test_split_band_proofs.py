"""The automatic mapper's split of loops proved parallel one by one shares their proofs
(`translator.analysis.legality.check_split_band`): no access pair of the split kernel is
compared again where every statement runs inside every mapped loop, and the verdict is the
one the full check gives.

Differential: random C loop nests (`tests.legality.random_regions`: scalars, private
temporaries, conditions, moving subscripts, columns that leave their extent, inner bounds
naming the enclosing loop), unmapped, each whole program and each of its loop nests alone,
mapped with the shared proofs and with the full check; the mappings and reasons are equal,
and every kernel accepted without a proof of its own passes the full check."""

from __future__ import annotations

import warnings

import pytest

from tests.legality.random_regions import Generator, Loop, render
from translator.analysis import legality
from translator.analysis.reductions import recognize_parallel_reductions
from translator.automap import auto_map
from translator.diagnostics import TranslatorError
from translator.driver import translate_text
from translator.pipeline import bound_assumptions, privatize_arrays

CASES = 120


def _regions(seed: int) -> list[str]:
    """The unmapped C text of case `seed`'s program and of each of its loop nests alone."""
    program = Generator(seed).program()
    parts = [program] + [[node] for node in program if isinstance(node, Loop)]
    return [render(part, "PRAGMA").replace("#pragma translate PRAGMA\n", "") for part in parts]


def _kernel(text: str):
    from translator.driver import frontend_for
    region = frontend_for("r.c").parse("r.c", text, {}).regions[0]
    return bound_assumptions(privatize_arrays(region.kernel))


def _mapped(kernel, shared: bool, monkeypatch):
    """(pragmas, reason, kind, final kernel) of `auto_map`, with or without shared proofs."""
    with monkeypatch.context() as m:
        if not shared:
            m.setattr(legality, "_band_shares_proofs", lambda *args: False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            final, mapping = auto_map(kernel)
    return mapping.pragmas, mapping.reason, mapping.kind, final


def _counting_shares(monkeypatch) -> list[bool]:
    seen: list[bool] = []
    real = legality._band_shares_proofs

    def counted(*args) -> bool:
        seen.append(real(*args))
        return seen[-1]

    monkeypatch.setattr(legality, "_band_shares_proofs", counted)
    return seen


def test_shared_proofs_give_the_full_checks_verdicts(monkeypatch) -> None:
    shared_count = 0
    for seed in range(CASES):
        for text in _regions(seed):
            try:
                kernel = _kernel(text)
            except TranslatorError:
                continue
            seen = _counting_shares(monkeypatch)
            fast = _mapped(kernel, True, monkeypatch)
            monkeypatch.undo()
            full = _mapped(kernel, False, monkeypatch)
            assert fast[:3] == full[:3], (seed, text)
            if any(seen):
                shared_count += 1
                # accepted without comparing accesses: the full comparison agrees
                legality._check_mappings(recognize_parallel_reductions(fast[3]))
    # the shortcut is taken often (single nests), and refused for the other shapes
    assert shared_count >= CASES // 2, shared_count


def _pair_checks(monkeypatch) -> list[str]:
    seen: list[str] = []
    real = legality._check_pair

    def counted(kernel, iname, tag, a, b):
        seen.append(iname)
        return real(kernel, iname, tag, a, b)

    monkeypatch.setattr(legality, "_check_pair", counted)
    return seen


SAXPY_F = """subroutine s(n, x, y)
  integer, intent(in) :: n
  real(8), intent(in) :: x(n)
  real(8), intent(inout) :: y(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     y(i) = y(i) + 2.0d0 * x(i)
  end do
  !$translate end kernel
end subroutine s
"""

NEST_C = """void f(int n, int m, double a[n][m], const double *restrict b)
{
#pragma translate kernel
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) {
      double t = b[j] * 2.0;
      a[i][j] = a[i][j] + t;
    }
#pragma translate end kernel
}
"""


@pytest.mark.parametrize("name, text", [("s.f90", SAXPY_F), ("n.c", NEST_C)])
def test_split_loops_are_not_compared_again(monkeypatch, name: str, text: str) -> None:
    """Only the loops proved alone (i, j; never i_inner, i_outer, ...) compare accesses:
    before, the split kernel's pairs were compared for every new iname.  The C nest has a
    private temporary (still checked on the split kernel) and two mapped loops."""
    seen = _pair_checks(monkeypatch)
    result = translate_text(name, text)
    assert seen and all(not n.endswith(("_inner", "_outer")) for n in seen), seen
    assert "i_inner" in result.outputs[name.split(".")[0] + ".cl"]


def test_statements_outside_the_band_are_checked_in_full(monkeypatch) -> None:
    """A statement outside the mapped loop (run by the first work item only) is not covered by
    the loop's proof alone: the split kernel is compared in full."""
    text = """void f(int n, double *restrict a, double *restrict c)
{
#pragma translate kernel
  c[0] = 1.0;
  for (int i = 0; i < n; i++)
    a[i] = a[i] + 1.0;
#pragma translate end kernel
}
"""
    shares = _counting_shares(monkeypatch)
    seen = _pair_checks(monkeypatch)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        translate_text("o.c", text)
    assert shares and not any(shares)
    assert any(n.endswith(("_inner", "_outer")) for n in seen), seen
