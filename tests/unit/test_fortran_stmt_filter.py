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
    """Each construct of `BLOCK_CONSTRUCTS` was found, with the statement it opens with."""
    source._parser()
    starts = {cls.__name__: start.__name__ for cls, start in stmt_filter.Filter.starts.items()}
    assert set(starts) == set(stmt_filter.BLOCK_CONSTRUCTS)
    assert starts["Block_Nonlabel_Do_Construct"] == "Nonlabel_Do_Stmt"
    assert starts["If_Construct"] == "If_Then_Stmt"
    assert starts["Derived_Type_Def"] == "Derived_Type_Stmt"
