"""fparser2's matches of repeated expression texts, remembered per file (issue 24,
`frontends.fortran.parse_memo`): the same tree as a parse without the memo, its own nodes at
every place, and a text naming an intrinsic function parsed afresh in each scope."""

from __future__ import annotations

import contextlib

from frontends.fortran import chains, source
from frontends.fortran.source import parse_source, walk


def _parsed(text: str, memo: bool = True):
    """The tree of `text`, with or without the memo."""
    if memo:
        return parse_source("t.f90", text, "free")
    saved = source.memo_scope
    source.memo_scope = contextlib.nullcontext
    try:
        return parse_source("t.f90", text, "free")
    finally:
        source.memo_scope = saved


def _halo(k: int) -> str:
    return f"""subroutine halo{k}(nx, ny, u)
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: u(0:nx + 1, 0:ny + 1)
  integer :: j
  do j = 1, ny
     u(0, j) = u(nx, j)
     u(nx + 1, j) = u(1, j) + 2.0d0 * u(nx + 1, j)
  end do
end subroutine halo{k}
"""


def _nodes(tree) -> list:
    """The parse-tree nodes of `tree` (`walk` also yields the lists that hold some)."""
    return [n for n in walk(tree) if not isinstance(n, (list, tuple))]


def _structure(tree) -> list:
    """Per node: class, attributes, the position of its parent, its own text."""
    position = {id(n): k for k, n in enumerate(_nodes(tree))}
    return [(type(n).__name__, sorted(vars(n)), position.get(id(n.parent)),
             n.string if isinstance(n.string, str) else None) for n in _nodes(tree)]


def test_repeated_texts_give_the_tree_a_parse_without_memo_gives():
    text = "".join(_halo(k) for k in range(4))
    with_memo, without = _parsed(text), _parsed(text, memo=False)
    assert repr(with_memo) == repr(without)
    assert str(with_memo) == str(without)
    assert _structure(with_memo) == _structure(without)


def test_every_place_has_its_own_nodes():
    tree = _parsed(_halo(0) + _halo(1))
    nodes = _nodes(tree)
    assert len({id(n) for n in nodes}) == len(nodes)
    for n in nodes:
        for kid in n.children:
            if hasattr(kid, "parent"):
                assert kid.parent is n, (type(n).__name__, type(kid).__name__)


def test_a_shadowed_intrinsic_is_parsed_in_its_own_scope():
    """``max(1, 2)`` calls the intrinsic in `a` and reads an array element in `b`, which
    declares an array ``max``: the answer for `a` must not be reused in `b`."""
    text = """subroutine a(y)
  real :: y(10)
  y(1) = max(1, 2)
end subroutine a
subroutine b(y)
  real :: y(10)
  real :: max(10, 10)
  y(1) = max(1, 2)
end subroutine b
"""
    kinds = [type(n).__name__ for n in _nodes(_parsed(text))
             if type(n).__name__ in ("Intrinsic_Function_Reference", "Part_Ref")
             and str(n).lower().startswith("max")]
    assert kinds == ["Intrinsic_Function_Reference", "Part_Ref"]


def test_repeated_statements_cost_few_nodes(monkeypatch):
    """fparser2 made 178 nodes for each repeated line below (every subscript and operand
    matched again); 8 now (a remembered expression text costs one)."""
    lines = 40
    left = {}
    original = chains.parse_budget

    def spy(nodes):
        if nodes is None and chains._Budget.left is not None:
            left["left"] = chains._Budget.left
        original(nodes)
    monkeypatch.setattr(source, "parse_budget", spy)
    body = "\n".join("     u(nx + 1, j) = u(1, j) + 2.0d0 * u(nx + 1, j)"
                     for _ in range(lines))
    head = ("subroutine s(nx, ny, u)\n  integer, intent(in) :: nx, ny\n"
            "  real(8), intent(inout) :: u(0:nx + 1, 0:ny + 1)\n  integer :: j\n"
            "  do j = 1, ny\n")
    tail = "\n  end do\nend subroutine s\n"

    def made(text: str) -> int:
        source.parse_source("halo.f90", text, "free")
        budget = source.NODES_PER_CHARACTER * len(text) + source.NODES_BASE
        return budget - left["left"]
    empty = made(head + "     u(0, j) = u(nx, j)" + tail)
    full = made(head + body + tail)
    assert (full - empty) / lines < 25, (full - empty) / lines
