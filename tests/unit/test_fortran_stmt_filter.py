"""Statement classes ruled out by a line's first word (issue 24, `frontends.fortran.stmt_filter`):
fparser2 tries a few classes per line instead of some 30, and the tree is the one it makes
trying them all, for statements of every kind the filter names (free and fixed form)."""

from __future__ import annotations

import contextlib

from frontends.fortran import source, stmt_filter
from frontends.fortran.source import parse_source
from tests.unit.test_fortran_parse_memo import _halo, _structure

#: A statement of (nearly) every kind in `stmt_filter.KEYWORDS`, in the places fparser2 tries
#: them, with names that start like keywords (``dox``, ``ifx``, ``data1``, ``endx``).
ZOO = """module m
  implicit none
  private
  public :: s, t, e
  integer, parameter :: k = 4
  integer :: cvar, bindx
  bind(c) :: cvar
  type :: t
     integer :: a
  contains
     procedure :: p
     generic :: g => p
     final :: f
  end type t
  enum, bind(c)
     enumerator :: red = 1, blue
  end enum
  interface e
     module procedure s
  end interface e
  abstract interface
     subroutine cb(x)
       real, intent(inout) :: x
     end subroutine cb
  end interface
contains
  subroutine p(self)
    class(t), intent(inout) :: self
    self%a = 1
  end subroutine p
  subroutine f(self)
    type(t), intent(inout) :: self
    self%a = 0
  end subroutine f
  subroutine s(n, x, y)
    integer, intent(in) :: n
    real, intent(inout) :: x(n), y(n)
    real, allocatable :: w(:)
    real, target :: tg
    real, pointer :: pt => null()
    real :: dox, ifx, data1, endx, calls, go
    integer :: i, j, u
    common /blk/ j
    save :: u
    dimension :: w2(3)
    real :: w2
    data data1 /1.0/
    namelist /nl/ dox
    equivalence (dox, ifx)
    volatile :: go
    asynchronous :: calls
    external :: ext
    intrinsic :: sin
    optional :: y
100 format (i4)
    dox = 1; ifx = 2
    endx = dox + ifx
    allocate(w(n))
    do i = 1, n
       if (x(i) > 0) then
          x(i) = x(i) + 1
       else if (x(i) < 0) then
          cycle
       else
          exit
       end if
    end do
    do 10 i = 1, n
       y(i) = x(i)
10  continue
    outer: do j = 1, 2
       if (j == 2) exit outer
    end do outer
    select case (n)
    case (1)
       x = 0
    case default
       x = 1
    end select
    where (x > 0)
       y = x
    elsewhere
       y = 0
    end where
    where (x < 0) x = 0
    forall (i = 1:n) y(i) = 2 * y(i)
    forall (i = 1:n)
       x(i) = y(i)
    end forall
    associate (z => x(1))
       z = 3
    end associate
    block
       real :: b
       b = 1
    end block
    if (n < 0) go to 20
    goto 20
20  continue
    pt => tg
    nullify(pt)
    call sub(x)
    calls = sin(dox)
    open(unit=10, file='f.txt')
    write(10, 100) n
    read(10, *) u
    print *, n
    inquire(unit=10, opened=calls)
    flush(10)
    backspace(10)
    rewind(10)
    endfile(10)
    close(10)
    deallocate(w)
    if (n > 100) stop 1
    if (n > 200) error stop 2
    return
  end subroutine s
end module m
program main
  use m
  implicit none
  real :: a(3)
  a = 0
  call s(3, a, a)
end program main
block data bd
  common /blk/ j
  integer :: j
  data j /0/
end block data bd
subroutine ent(x)
  real :: x
  x = 1
  entry ent2(x)
  x = 2
end subroutine ent
"""

FIXED = """      SUBROUTINE FX(N, X)
      INTEGER N, I
      REAL X(N)
      DIMENSION W(2)
      DATA W /1.0, 2.0/
      DO 10 I = 1, N
         IF (X(I) .GT. 0) GO TO 10
         X(I) = 0
   10 CONTINUE
      GO TO 20
   20 CONTINUE
      CALL SUB(X)
      RETURN
      END
"""


def _parsed(text: str, form: str = "free", *, filtered: bool = True):
    """The tree of `text`, with or without the filter (fparser2 numbers BLOCK constructs
    from a count kept across parses: it starts at 0 for each tree compared here)."""
    source._parser()
    from fparser.two.Fortran2008 import Block_Stmt
    Block_Stmt.counter = 0
    if filtered:
        return parse_source("t.f90", text, form)
    saved = source.statement_filter
    source.statement_filter = contextlib.nullcontext
    try:
        return parse_source("t.f90", text, form)
    finally:
        source.statement_filter = saved


def _text_tries(monkeypatch, text: str, *, filtered: bool = True) -> int:
    """How many times fparser2 matched a class against a whole line of `text`."""
    source._parser()
    from fparser.common.readfortran import Line
    calls = [0]
    original = Line.parse_line

    def counted(self, cls, parent_cls):
        calls[0] += 1
        return original(self, cls, parent_cls)
    monkeypatch.setattr(Line, "parse_line", counted)
    _parsed(text, filtered=filtered)
    return calls[0]


def test_a_line_takes_few_tries(monkeypatch):
    """A subroutine of 9 lines: about 30 classes tried per line (270 whole-line matches)
    without the filter, under 8 per line with it."""
    text = "".join(_halo(k) for k in range(21))
    per_unit = (_text_tries(monkeypatch, text) - _text_tries(monkeypatch, _halo(0))) / 20
    assert per_unit < 8 * 9, per_unit
    unfiltered = (_text_tries(monkeypatch, text, filtered=False)
                  - _text_tries(monkeypatch, _halo(0), filtered=False)) / 20
    assert unfiltered > 3 * per_unit, (unfiltered, per_unit)


def test_the_tree_of_every_kind_of_statement_is_fparsers():
    for text, form in ((ZOO, "free"), (FIXED, "fixed"), (_halo(0) * 2, "free")):
        with_filter, without = _parsed(text, form), _parsed(text, form, filtered=False)
        assert str(with_filter) == str(without)
        assert repr(with_filter) == repr(without)
        assert _structure(with_filter) == _structure(without)


def test_the_zoo_has_the_filtered_statements():
    """The zoo above exercises most filtered classes where they match."""
    from frontends.fortran.source import walk
    kinds = {type(n).__name__ for n in walk(_parsed(ZOO))}
    matched = kinds & set(stmt_filter.KEYWORDS)
    assert len(matched) >= 60, sorted(set(stmt_filter.KEYWORDS) - kinds)


def test_every_filtered_name_is_an_fparser_statement_class():
    """A misspelt name would silently leave its class unfiltered."""
    source._parser()
    names = {cls.__name__ for cls in stmt_filter.Filter.classes}
    assert names == set(stmt_filter.KEYWORDS)


def _class_tries(monkeypatch, text: str, *, filtered: bool = True) -> int:
    """How many times fparser2's node constructor (`Base.__new__`) was called for `text`."""
    source._parser()
    from fparser.two.utils import Base
    calls = [0]
    original = Base.__new__

    def counted(cls, *args, **kwargs):
        calls[0] += 1
        return original(cls, *args, **kwargs)
    monkeypatch.setattr(Base, "__new__", counted)
    _parsed(text, filtered=filtered)
    monkeypatch.setattr(Base, "__new__", original)
    return calls[0]


def test_alternatives_that_cannot_match_are_not_called(monkeypatch):
    """``Declaration_Construct`` at ``integer :: j`` used to call its 30 subclasses one by
    one, ``Executable_Construct`` at ``u(0, j) = ...`` its 40: now the few that may match.
    Per 9-line subroutine: 169 constructor calls (551 with the keyword filter alone, as
    before this change; 802 without any)."""
    text = "".join(_halo(k) for k in range(21))
    per_unit = (_class_tries(monkeypatch, text) - _class_tries(monkeypatch, _halo(0))) / 20
    assert per_unit < 200, per_unit
    unfiltered = (_class_tries(monkeypatch, text, filtered=False)
                  - _class_tries(monkeypatch, _halo(0), filtered=False)) / 20
    assert unfiltered > 4 * per_unit, (unfiltered, per_unit)


def _nodes_counted(monkeypatch, text: str, form: str, *, alternatives: bool) -> int:
    """The nodes fparser2's parse of `text` counted against `chains.parse_budget`, with or
    without `try_alternatives` (the keyword filter on)."""
    from frontends.fortran import chains
    start = 10 ** 9
    used = []

    def budget(nodes):
        if nodes is None:
            used.append(start - chains._Budget.left)
        chains.parse_budget(None if nodes is None else start)

    def plain(new, cls, reader, parent_cls, spend):
        return new(cls, reader, parent_cls)
    monkeypatch.setattr(source, "parse_budget", budget)
    if not alternatives:
        monkeypatch.setattr(chains, "try_alternatives", plain)
    _parsed(text, form)
    monkeypatch.undo()
    return used[-1]


def test_untried_alternatives_count_the_nodes_their_tries_would_make(monkeypatch):
    """The parse budget (`chains.parse_budget`) runs out where it ran out before."""
    for text, form in ((ZOO, "free"), (FIXED, "fixed"), (_halo(0) * 3, "free")):
        assert (_nodes_counted(monkeypatch, text, form, alternatives=True)
                == _nodes_counted(monkeypatch, text, form, alternatives=False))


def test_every_construct_has_its_opening_statement():
    """Each construct of `BLOCK_CONSTRUCTS` (and `DIRECT_BLOCKS`) was found, with the statement
    it opens with (or, without one, the statements it tries)."""
    source._parser()
    starts = {cls.__name__: start.__name__ for cls, start in stmt_filter.Filter.starts.items()}
    assert set(starts) == set(stmt_filter.BLOCK_CONSTRUCTS) | {"Execution_Part", "Main_Program"}
    assert starts["Execution_Part"] == "Executable_Construct_C201"
    parts = {cls.__name__: [c.__name__ for c in p] for cls, p in stmt_filter.Filter.parts.items()}
    assert parts["Implicit_Part"] == ["Implicit_Part_Stmt", "Comment", "Include_Stmt"]
    assert set(parts) == {"Implicit_Part", "Specification_Part"}
    assert starts["Block_Nonlabel_Do_Construct"] == "Nonlabel_Do_Stmt"
    assert starts["If_Construct"] == "If_Then_Stmt"
    assert starts["Derived_Type_Def"] == "Derived_Type_Stmt"


#: A unit of bench_scale's ``regions`` shape: declarations, directive comments, one loop.
def _region_unit(k: int) -> str:
    return f"""subroutine reg{k}(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: x(n), y(n)
  integer :: i
  !$translate kernel
  do i = 1, n
     y(i) = y(i) + 2.0d0 * x(i)
  end do
  !$translate end kernel
end subroutine reg{k}
"""


def _reads(monkeypatch, text: str) -> tuple[int, int]:
    """fparser2's takes of a line from the reader's queue or source (``_next``) and its
    whole-line matches (``Line.parse_line``) while `text` is parsed."""
    source._parser()
    from fparser.common.readfortran import FortranReaderBase, Line
    counts = [0, 0]
    take, match = FortranReaderBase._next, Line.parse_line

    def taken(self, *args, **kwargs):
        counts[0] += 1
        return take(self, *args, **kwargs)

    def matched(self, *args):
        counts[1] += 1
        return match(self, *args)
    monkeypatch.setattr(FortranReaderBase, "_next", taken)
    monkeypatch.setattr(Line, "parse_line", matched)
    _parsed(text)
    monkeypatch.undo()
    return counts[0], counts[1]


def test_a_line_is_taken_and_matched_few_times(monkeypatch):
    """In the ``regions`` shape fparser2 took each line from its reader 9.5 times and matched
    its text 3.5 times (blocks asking again at a line given back, every class tried at a
    comment line); now a line known is handed out at once and tries that cannot match it
    are left: under 4 takes and 2 matches."""
    lines = 11 * 20
    takes, matches = _reads(monkeypatch, "".join(_region_unit(k) for k in range(20)))
    assert takes / lines < 4, takes / lines
    assert matches / lines < 2, matches / lines


def test_left_block_tries_and_comment_answers_count_as_fparsers(monkeypatch):
    """Blocks left at a line (`try_block`) and tries answered at a comment or from a line's
    cache (`answer_at_reader`) leave the tree and the nodes counted against the parse
    budget as fparser2's own tries (compared with those paths off)."""
    from frontends.fortran import chains
    mixed = ("program p\n  ! a comment\n  implicit none\n  integer :: i\n"
             "  include 'missing.h'\n  i = 1\nend program p\n" + _region_unit(0) + _region_unit(1))
    for text, form in ((ZOO, "free"), (FIXED, "fixed"), (mixed, "free")):
        counted = _nodes_counted(monkeypatch, text, form, alternatives=True)
        tree = repr(_parsed(text, form))
        monkeypatch.setattr(chains, "try_block", lambda new, cls, reader, parent_cls, spend:
                            new(cls, reader, parent_cls))
        monkeypatch.setattr(chains, "answer_at_reader", lambda *args: stmt_filter.TRY)
        assert repr(_parsed(text, form)) == tree
        # (`_nodes_counted` undoes the two patches after counting)
        assert _nodes_counted(monkeypatch, text, form, alternatives=True) == counted, text[:30]
