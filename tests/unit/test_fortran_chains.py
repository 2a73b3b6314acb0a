"""fparser2's work on plain assignments (issue 24): a bare name asked of an expression class
becomes a `Name` at once (`frontends.fortran.chains.NAME_CLASSES`), the node fparser2's own
search reaches; a subscripted assignment costs a fraction of the nodes it did."""

from __future__ import annotations

import pytest

from frontends.fortran import chains, source

NAMES = ("i", "x", "k2", "n_max", "sin", "real", "null", "true", "e", "d0", "if", "end",
         "kind", "len", "result", "B_7")


def _fparser_classes() -> dict:
    source._parser()
    from fparser.two import Fortran2003
    return {name: getattr(Fortran2003, name) for name in chains.NAME_CLASSES}


@pytest.mark.parametrize("cls_name", sorted(chains.NAME_CLASSES))
def test_a_bare_name_is_the_node_fparser_itself_finds(cls_name: str):
    cls = _fparser_classes()[cls_name]
    from fparser.two.Fortran2003 import Name
    for name in NAMES:
        quick = cls(name)
        slow = chains._Budget.fparser_new(cls, name)
        assert type(quick) is Name and type(slow) is Name, (cls_name, name, slow)
        assert repr(quick) == repr(slow) and str(quick) == name


def test_names_with_more_than_a_name_take_fparsers_way():
    from fparser.two.Fortran2003 import Level_2_Expr, Name, Part_Ref, Section_Subscript
    source._parser()
    assert type(Section_Subscript("i + 1")) is Level_2_Expr
    assert type(Section_Subscript("u(i)")) is Part_Ref
    assert type(Section_Subscript(" i")) is Name   # fparser's own way strips the blank
    assert str(Section_Subscript("1:n")) == "1 : n"


def test_subscripted_assignments_cost_few_nodes(monkeypatch):
    """fparser2 alone made 530 nodes for each of these lines (every subscript went through
    some twenty classes before `Name`); under 150 now."""
    left = {}
    original = chains.parse_budget

    def spy(nodes):
        if nodes is None and chains._Budget.left is not None:
            left["left"] = chains._Budget.left
        original(nodes)
    monkeypatch.setattr(source, "parse_budget", spy)
    body = "\n".join(f"        u{s % 8}(i, j, k) = u{s % 8}(i, j, k) + {s}.0d0 * "
                     f"u{(s + 1) % 8}(i, j, k)" for s in range(40))
    decls = "\n".join(f"  real(8) :: u{s}(m, m, m)" for s in range(8))
    head = ("subroutine big(m)\n  integer, intent(in) :: m\n" + decls
            + "\n  integer :: i, j, k\n  do k = 1, m\n    do j = 1, m\n      do i = 1, m\n")
    tail = "\n      end do\n    end do\n  end do\nend subroutine big\n"

    def made(text: str) -> int:
        source.parse_source("deep.f90", text, "free")
        budget = source.NODES_PER_CHARACTER * len(text) + source.NODES_BASE
        return budget - left["left"]
    empty = made(head + tail)
    full = made(head + body + tail)
    assert (full - empty) / 40 < 150, (full - empty) / 40


def test_intrinsic_names_answer_as_fparser():
    """The set of intrinsic names answers as fparser2's comparison with each name in turn
    (`chains._install_intrinsic_names`): the name in upper case, or None."""
    from frontends.fortran.source import _parser
    _parser()
    from fparser.two import Fortran2003
    from fparser.two.Fortran2008.intrinsics_f08 import Intrinsic_Name
    from fparser.two.utils import STRINGBase
    for cls in (Fortran2003.Intrinsic_Name, Intrinsic_Name):
        texts = [n for n in cls.function_names] + [n.lower() for n in cls.function_names]
        texts += ["t0", "u", "sinx", "Max", "bessel_j0", "", "\u00df", None]
        for text in texts:
            assert cls.match(text) == STRINGBase.match(cls.function_names, text), text


def test_a_reference_is_not_compared_with_each_intrinsic_name(monkeypatch):
    """``t1(i) = t0(i) * 0.5d0``: fparser2 asks whether ``t0`` names an intrinsic function by
    comparing it with each of some 200 names, a call each (a fifth of the parse of 400
    such loops); now none."""
    from frontends.fortran.source import _parser, parse_source
    _parser()
    from fparser.two.utils import STRINGBase
    calls = [0]
    original = STRINGBase.__dict__["match"].__func__

    def counted(*args):
        calls[0] += 1
        return original(*args)
    monkeypatch.setattr(STRINGBase, "match", staticmethod(counted))
    body = "".join(f"  do i = 1, m\n     t{k + 1}(i) = t{k}(i) * 0.5d0 + 1.0d0\n  end do\n"
                   for k in range(20))
    parse_source("l.f90", "subroutine s(m, t0)\n  integer :: m, i\n  real(8) :: t0(m)\n"
                 + "".join(f"  real(8) :: t{k + 1}(m)\n" for k in range(20)) + body
                 + "end subroutine s\n", "free")
    assert calls[0] < 200, calls[0]
