"""The work of assembling a Fortran region's kernel (issue 24): each extent question asked
once, and statement dependencies found per name with the result of the pairwise rule."""

from __future__ import annotations

from frontends.fortran import FRONTEND
from translator.ir import isl_glue
from translator.ir.expr import dependencies

HALO = """subroutine halo(nx, ny, u)
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: u(0:nx + 1, 0:ny + 1)
  integer :: j
  !$translate kernel
  do j = 1, ny
     u(0, j) = u(nx, j)
     u(nx + 1, j) = u(1, j)
  end do
  !$translate end kernel
end subroutine halo
"""

CHAIN = """subroutine chain(n, a, b, c, s)
  integer, intent(in) :: n
  real(8), intent(inout) :: a(n), b(n), c(n), s(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     a(i) = b(i) + 1.0d0
     c(i) = a(i) * 2.0d0
     b(i) = c(i) - s(i)
     s(i) = s(i) + a(i)
     a(i) = 0.0d0
     c(i) = b(i)
  end do
  !$translate end kernel
end subroutine chain
"""


def test_each_extent_question_is_asked_once(monkeypatch):
    """The four subscripts ``j`` of `u`'s last axis are one question about the dummy's
    declared extent (it was asked four times)."""
    asked = []
    original = isl_glue.is_nonnegative

    def counted(*args, **kwargs):
        asked.append(args[0])
        return original(*args, **kwargs)
    monkeypatch.setattr(isl_glue, "is_nonnegative", counted)
    parsed = FRONTEND.parse("halo.f90", HALO, {})
    (arg,) = [a for a in parsed.regions[0].kernel.args if a.name == "u"]
    assert str(arg.shape[-1]) == "ny + 2"
    assert len(asked) == 1


def _pairwise(statements) -> list[frozenset[str]]:
    """Each statement's dependencies by the pairwise rule: an earlier statement that writes
    a name it reads or writes, or reads a name it writes."""
    def names(s):
        reads = {n for e in s.read_expressions() for n in dependencies(e)} - {"i"}
        return reads, set(s.assignee_names())
    out = []
    for j, later in enumerate(statements):
        reads, writes = names(later)
        out.append(frozenset(
            earlier.id for earlier in statements[:j]
            if names(earlier)[1] & (reads | writes) or names(earlier)[0] & writes))
    return out


def test_dependencies_follow_the_pairwise_rule():
    statements = FRONTEND.parse("chain.f90", CHAIN, {}).regions[0].kernel.statements
    assert [s.depends_on for s in statements] == _pairwise(statements)
    assert any(len(s.depends_on) >= 3 for s in statements)
