"""fparser2's search for comments, INCLUDE and preprocessor lines before each statement, with
a look at the line first (issue 24, `frontends.fortran.comment_scan`): a statement takes no
tries, and every comment, INCLUDE and ``#`` line is found as fparser2's own search finds it."""

from __future__ import annotations

from frontends.fortran import chains, comment_scan, source
from frontends.fortran.source import walk
from tests.unit.test_fortran_parse_memo import _halo

UNITS = 10

MIXED = """! a comment before the unit
subroutine s(n, a)
  ! a comment in the declarations
  integer, intent(in) :: n
#define TWO 2
  real(8), intent(inout) :: a(n)
  include 'missing_header.inc'
  integer :: i
  !$omp parallel do
  do i = 1, n
#ifdef TWO
     a(i) = a(i) + 1.0d0   ! a trailing comment
#endif
     ! a comment between statements
     a(i) = 2 * a(i)
  end do
  INCLUDE "other.inc"
end subroutine s
! a comment after the unit
"""


def _nodes_made(monkeypatch, text: str) -> int:
    """The parse-tree nodes (tries included) fparser2 made for `text`."""
    left = {}
    original = chains.parse_budget

    def spy(nodes):
        if nodes is None and chains._Budget.left is not None:
            left["left"] = chains._Budget.left
        original(nodes)
    monkeypatch.setattr(source, "parse_budget", spy)
    source.parse_source("s.f90", text, "free")
    return source.NODES_PER_CHARACTER * len(text) + source.NODES_BASE - left["left"]


def _fparsers_own_search(monkeypatch) -> None:
    source._parser()
    from fparser.two import Fortran2003
    from fparser.two.utils import DynamicImport
    monkeypatch.setattr(Fortran2003, "add_comments_includes_directives",
                        comment_scan.fparser_search)
    monkeypatch.setattr(DynamicImport, "add_comments_includes_directives",
                        comment_scan.fparser_search)


def test_statements_take_no_include_tries(monkeypatch):
    """Each construct fparser2 tries at a statement asked first for an INCLUDE line there:
    65 of the 867 nodes of each of these halo subroutines.  The look answers without them.
    (Measured with every construct tried: `stmt_filter.try_alternatives` leaves untried
    the constructs whose opening statement cannot match, and their searches with them;
    `stmt_filter.try_block` the blocks tried directly.)"""
    def every_alternative(new, cls, reader, parent_cls, spend):
        return new(cls, reader, parent_cls)
    monkeypatch.setattr(chains, "try_alternatives", every_alternative)
    monkeypatch.setattr(chains, "try_block", every_alternative)

    def per_unit() -> float:
        return (_nodes_made(monkeypatch, "".join(_halo(k) for k in range(UNITS + 1)))
                - _nodes_made(monkeypatch, _halo(0))) / UNITS
    looked = per_unit()
    _fparsers_own_search(monkeypatch)
    assert per_unit() - looked >= 60, (per_unit(), looked)


def _tree_text(text: str, form: str = "free") -> tuple[str, list[str]]:
    """The tree's text and its nodes' classes, in walk order."""
    tree = source.parse_source("s.f90", text, form)
    return str(tree), [type(n).__name__ for n in walk(tree)]


def test_comments_includes_and_preprocessor_lines_as_fparser_finds_them(monkeypatch):
    fixed = ("c a fixed-form comment\n      subroutine f(x)\n      real x\n"
             "* another comment\n      x = 1\n      include 'fixed.inc'\n      end\n")
    looked = _tree_text(MIXED), _tree_text(fixed, "fixed")
    kinds = looked[0][1] + looked[1][1]
    assert kinds.count("Include_Stmt") == 3 and kinds.count("Comment") >= 8
    assert {"Cpp_Macro_Stmt", "Cpp_If_Stmt", "Cpp_Endif_Stmt"} <= set(kinds)
    _fparsers_own_search(monkeypatch)
    assert (_tree_text(MIXED), _tree_text(fixed, "fixed")) == looked


def _lines_taken(monkeypatch, text: str) -> int:
    """How many times fparser2 took a line from the reader while parsing `text`."""
    source._parser()
    from fparser.common.readfortran import FortranReaderBase
    calls = [0]
    original = FortranReaderBase.get_item

    def counted(self, *args, **kwargs):
        calls[0] += 1
        return original(self, *args, **kwargs)
    monkeypatch.setattr(FortranReaderBase, "get_item", counted)
    source.parse_source("s.f90", text, "free")
    monkeypatch.setattr(FortranReaderBase, "get_item", original)
    return calls[0]


def test_a_statement_is_not_taken_to_ask_whether_it_is_a_comment(monkeypatch):
    """Each block asks at each line whether it is a comment or a ``#`` line, taking the line
    and giving it back: 22 of the 61 takes of each halo subroutine.  At a line known to be a
    statement the answer is given without a take.  (Measured with every block tried:
    `stmt_filter.try_block` leaves those that cannot match, and their asks with them.)"""
    monkeypatch.setattr(chains, "try_block", lambda new, cls, reader, parent_cls, spend:
                        new(cls, reader, parent_cls))

    def per_unit() -> float:
        return (_lines_taken(monkeypatch, "".join(_halo(k) for k in range(UNITS + 1)))
                - _lines_taken(monkeypatch, _halo(0))) / UNITS
    looked = per_unit()
    from fparser.two import C99Preprocessor, Fortran2003
    monkeypatch.setattr(Fortran2003.Comment, "__new__", comment_scan.fparser_comment_new)
    monkeypatch.setattr(C99Preprocessor, "match_cpp_directive", comment_scan.fparser_cpp_match)
    assert per_unit() - looked >= 15, (per_unit(), looked)
