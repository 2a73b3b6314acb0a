"""fparser2's matches of repeated expression texts, remembered per file (issue 24,
`frontends.fortran.parse_memo`): the same tree as a parse without the memo, its own nodes at
every place, and a text naming an intrinsic function parsed afresh in each scope."""

from __future__ import annotations

import contextlib
import re

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
    texts = [getattr(n, "string", None) for n in _nodes(tree)]   # a comment has none
    return [(type(n).__name__, sorted(vars(n)), position.get(id(n.parent)),
             text if isinstance(text, str) else None) for n, text in zip(_nodes(tree), texts)]


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


# --- statements (`parse_memo.statement_memoized`) ---------------------------------------


def _parsed_statements(text: str, form: str = "free", *, memo: bool = True):
    """The tree of `text`, with or without the statement memo (the expression memo on)."""
    from frontends.fortran import parse_memo
    source._parser()
    saved = parse_memo._Memo.statement_classes
    if not memo:
        parse_memo._Memo.statement_classes = frozenset()
    try:
        return parse_source("t.f90", text, form)
    finally:
        parse_memo._Memo.statement_classes = saved


def _matches(monkeypatch, cls_name: str, text: str, *, memo: bool = True) -> int:
    """How many times fparser2 ran the match of statement class `cls_name` for `text`."""
    source._parser()
    from fparser.two import Fortran2003
    cls = getattr(Fortran2003, cls_name)
    calls = [0]
    original = cls.__dict__["match"]

    def counted(*args):
        calls[0] += 1
        return original.__get__(None, cls)(*args)
    monkeypatch.setattr(cls, "match", staticmethod(counted)
                        if isinstance(original, staticmethod) else classmethod(
                            lambda c, *a: counted(*a)))
    _parsed_statements(text, memo=memo)
    monkeypatch.undo()
    return calls[0]


def test_a_repeated_statement_is_matched_twice(monkeypatch):
    """40 subroutines with the same body: fparser2 ran ``Assignment_Stmt``'s match 5 times
    per subroutine (the two assignments, and the lines that may be one: ``do j = 1, ny``
    ...), 200 in all; now twice per text (the second tells the nodes a try counts, see
    below) and once at each subroutine's own line ``end subroutine haloK``."""
    text = "".join(_halo(k) for k in range(40))
    once = _matches(monkeypatch, "Assignment_Stmt", _halo(0))
    assert _matches(monkeypatch, "Assignment_Stmt", text, memo=False) == 40 * once
    assert _matches(monkeypatch, "Assignment_Stmt", text) <= 2 * once + 40


def test_remembered_statements_give_the_tree_fparser_gives():
    """Every statement kind of the zoo and the samples, repeated: the same tree, each place
    its own nodes, with and without the statement memo."""
    import glob
    from tests.unit.test_fortran_stmt_filter import FIXED, ZOO
    renamed = re.sub(r"\b(m|main|bd|ent|ent2)\b", r"\1_2", ZOO)
    texts = [(ZOO + renamed, "free"),
             (FIXED + FIXED.replace("FX(", "FY("), "fixed"),
             ("".join(_halo(k) for k in range(5)), "free")]
    for path in sorted(glob.glob("samples/*/*.f90"))[:12]:
        with open(path) as f:
            texts.append((f.read(), "free"))
    from fparser.two.Fortran2008 import Block_Stmt
    for text, form in texts:
        Block_Stmt.counter = 0
        with_memo = _parsed_statements(text, form)
        Block_Stmt.counter = 0
        without = _parsed_statements(text, form, memo=False)
        assert repr(with_memo) == repr(without)
        assert str(with_memo) == str(without)
        assert _structure(with_memo) == _structure(without)
        nodes = _nodes(with_memo)
        assert len({id(n) for n in nodes}) == len(nodes)


def test_a_statement_naming_an_intrinsic_is_matched_in_its_scope():
    """The same statement ``y(1) = max(1, 2)`` in three subroutines: a call of the intrinsic
    in `a` and `c`, an element of the array ``max`` `b` declares.  A statement's match
    depends on its scope when it names an intrinsic: `b`'s must not be `a`'s."""
    unit = """subroutine {name}(y)
  real :: y(10)
{decl}  y(1) = max(1, 2)
end subroutine {name}
"""
    text = (unit.format(name="a", decl="") + unit.format(name="c", decl="")
            + unit.format(name="b", decl="  real :: max(10, 10)\n"))
    kinds = [type(n).__name__ for n in _nodes(_parsed_statements(text))
             if type(n).__name__ in ("Intrinsic_Function_Reference", "Part_Ref")
             and str(n).lower().startswith("max")]
    assert kinds == ["Intrinsic_Function_Reference", "Intrinsic_Function_Reference",
                     "Part_Ref"]


def test_a_remembered_declaration_records_its_names(monkeypatch):
    """fparser2's declaration match records the names it declares in the scope's symbol
    table (what decides whether a later intrinsic's name is shadowed); a remembered one
    does too."""
    from fparser.two.symbol_table import SYMBOL_TABLES
    seen: list[dict] = []
    clear = SYMBOL_TABLES.clear

    def snapshot():
        seen.append({name: sorted(table._data_symbols)
                     for name, table in SYMBOL_TABLES._symbol_tables.items()})
        clear()
    monkeypatch.setattr(SYMBOL_TABLES, "clear", snapshot)
    text = "".join(_halo(k) for k in range(4))
    _parsed_statements(text)
    with_memo = seen[-1]
    _parsed_statements(text, memo=False)
    assert with_memo == seen[-1]
    assert with_memo["halo3"] == ["j", "nx", "ny", "u"]


def test_remembered_statements_count_the_nodes_their_tries_made(monkeypatch):
    """The parse budget (`chains.parse_budget`) runs out where it ran out before: a
    remembered try counts what a try with the expressions remembered counted."""
    from tests.unit.test_fortran_stmt_filter import FIXED, ZOO
    left = {}
    original = chains.parse_budget

    def spy(nodes):
        if nodes is None and chains._Budget.left is not None:
            left["left"] = chains._Budget.left
        original(nodes)
    monkeypatch.setattr(source, "parse_budget", spy)
    for text, form in ((ZOO, "free"), (FIXED + FIXED.replace("FX(", "FY("), "fixed"),
                       ("".join(_halo(k) for k in range(6)), "free")):
        _parsed_statements(text, form)
        counted = left["left"]
        _parsed_statements(text, form, memo=False)
        assert counted == left["left"]
